#!/bin/sh
# Test hook: writes its pid — and, where /proc has it, its start time, so
# that a test can tell it from a later process given the same pid (pid_max
# is 32768 on many machines, and `make test` starts processes fast) — to
# the file named by the field "pidfile", then sleeps for the field "sleep"
# seconds.
in=$(cat)
start=
if [ -r "/proc/$$/stat" ]; then
	read -r stat <"/proc/$$/stat"
	# shellcheck disable=SC2086 # split into the fields after "(comm) "
	set -- ${stat##*) }
	start=${20} # field 22, starttime
fi
printf '%s %s\n' "$$" "$start" > "$(printf '%s' "$in" | jq -r '.extra.pidfile')"
exec sleep "$(printf '%s' "$in" | jq -r '.extra.sleep')"
