#!/bin/sh
# log-orchestration.sh — subagent_stop hook, Hermes dialect.
#
# Appends one JSON line per finished subagent to an audit log, so you can
# see afterwards what the orchestrator delegated, to whom, how it ended and
# how long it took:
#
#   {"ts":"2026-05-01T12:00:00Z","session_id":"parent","child_session_id":"child",
#    "child_role":"leaf","child_status":"completed","duration_ms":1234,"summary":"..."}
#
# Log file: $HERMES_HOOKS_LOG, else $HERMES_HOME/logs/subagents.jsonl when
# HERMES_HOME is set (Hermes sets it per profile), else
# ~/.hermes/logs/subagents.jsonl. The directory is created when missing.
# Missing payload fields are logged as null. Prints nothing: an observer
# has no opinion. Needs jq (exits 1 with the reason on stderr without it).

set -eu

if ! command -v jq >/dev/null 2>&1; then
	echo "log-orchestration.sh: jq is required to read the hook payload but is not on PATH (install jq)" >&2
	exit 1
fi

# Read all of stdin first: the host writes the payload and then waits.
payload=$(cat)

log=${HERMES_HOOKS_LOG:-}
if [ -z "$log" ]; then
	if [ -n "${HERMES_HOME:-}" ]; then
		log=$HERMES_HOME/logs/subagents.jsonl
	elif [ -n "${HOME:-}" ]; then
		log=$HOME/.hermes/logs/subagents.jsonl
	else
		echo "log-orchestration.sh: neither HERMES_HOOKS_LOG, HERMES_HOME nor HOME is set; nowhere to log" >&2
		exit 1
	fi
fi

# The summary is cut so that the whole line stays under 4000 bytes: see the
# append below for why the size matters.
if ! line=$(printf '%s' "$payload" | jq -c '
	def fit($max):
	  if (tojson | utf8bytelength) <= $max or (.summary | type) != "string" or .summary == "" then .
	  else .summary |= .[:(length * 3 / 4 | floor)] | .cut = true | fit($max) end;
	(if type == "object" then . else {} end) as $p
	| ($p.extra | if type == "object" then . else {} end) as $x
	| {ts: (now | todate),
	   session_id: $p.session_id,
	   child_session_id: $x.child_session_id,
	   child_role: $x.child_role,
	   child_status: $x.child_status,
	   duration_ms: $x.duration_ms,
	   summary: $x.child_summary}
	| fit(3990)
	| if .cut then del(.cut) | .summary += "…" else . end'); then
	echo "log-orchestration.sh: could not read the hook payload (jq failed, see above)" >&2
	exit 1
fi

mkdir -p "$(dirname "$log")"

# Two subagents can finish at the same moment, so two copies of this hook can
# append at once. No lock is needed: the file is opened with O_APPEND (>>),
# and the kernel moves to the end of the file and writes as one step for
# each write(2), so two writes never overwrite or split each other (on local
# filesystems; NFS does not promise this). What we must ensure is that each
# line goes out in ONE write: the newline travels inside the printf
# argument, not in the format (dash would write it separately), and the line
# is kept under 4 KiB, below any shell's output buffer.
nl='
'
printf '%s' "$line$nl" >>"$log"
