#!/bin/sh
# Test hook: writes its pid to the file named by the field "pidfile", then
# sleeps for the field "sleep" seconds.
in=$(cat)
printf '%s\n' "$$" > "$(printf '%s' "$in" | jq -r '.extra.pidfile')"
exec sleep "$(printf '%s' "$in" | jq -r '.extra.sleep')"
