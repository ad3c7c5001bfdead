#!/bin/sh
# make demo: show what hermes-hooks does, on the bundled example config
# (agent-hooks/config.yaml), in a throwaway HERMES_HOME that is deleted at the
# end. Your own ~/.hermes is never read or written.
set -eu

bin=${1:-bin/hermes-hooks}
cd "$(dirname "$0")/.."
case $bin in /*) ;; *) bin=$PWD/$bin ;; esac

HERMES_HOME=$(mktemp -d "${TMPDIR:-/tmp}/hermes-hooks-demo.XXXXXX")
export HERMES_HOME
trap 'rm -rf "$HERMES_HOME"' EXIT INT TERM
# The demo decides consent itself: no ambient accept or safe mode.
unset HERMES_ACCEPT_HOOKS HERMES_SAFE_MODE
# Hooks the example config runs read these.
HERMES_HOOKS_LOG=$HERMES_HOME/logs/subagents.jsonl
export HERMES_HOOKS_LOG

if [ -t 1 ]; then bold=$(printf '\033[1m'); dim=$(printf '\033[2m'); off=$(printf '\033[0m'); else bold=; dim=; off=; fi

# say starts a narration paragraph, more continues it; show runs a
# hermes-hooks command after printing it as the reader would type it.
say() { printf '\n%s%s%s\n' "$dim" "$*" "$off"; }
more() { printf '%s%s%s\n' "$dim" "$*" "$off"; }
show() {
	printf '%s$ hermes-hooks %s%s\n' "$bold" "$*" "$off"
	"$bin" --config agent-hooks/config.yaml "$@"
}
dispatch() {
	printf '%s$ echo %s | hermes-hooks dispatch %s%s\n' "$bold" "'$1'" "$2" "$off"
	printf '%s' "$1" | "$bin" --config agent-hooks/config.yaml dispatch "$2" --pretty
}

say "hermes-hooks demo — throwaway HERMES_HOME=$HERMES_HOME"
say "1. The example config (agent-hooks/config.yaml) declares six hooks. None is approved yet,"
more "   so none would run: every hook needs your consent first."
show list

say "2. Try the pre_tool_call hooks on a synthetic terminal call. 'test' runs hooks even"
more "   before approval (that is how you decide to approve them) and says so."
show test pre_tool_call --for-tool terminal

say "3. Approve them. The allowlist records each script's SHA-256: edit a script and it"
more "   stops running until you approve it again."
show approve --all

say "4. An agent asks before running 'ls -la': the hooks run, nobody objects."
dispatch '{"tool_name":"terminal","args":{"command":"ls -la"},"session_id":"demo"}' pre_tool_call

say "5. The agent asks before running 'rm -rf /': blocked, with the reason for the model."
dispatch '{"tool_name":"terminal","args":{"command":"rm -rf /"},"session_id":"demo"}' pre_tool_call

more "   The same answer in Hermes' own wire shape (--format hermes), for a Hermes host:"
printf '%s$ echo ... | hermes-hooks dispatch pre_tool_call --format hermes%s\n' "$bold" "$off"
printf '%s' '{"tool_name":"terminal","args":{"command":"rm -rf /"}}' |
	"$bin" --config agent-hooks/config.yaml dispatch pre_tool_call --format hermes

say "6. Inside Claude Code, Codex, Copilot or Cursor: 'hermes-hooks install claude' makes the"
more "   agent run 'hermes-hooks hook claude EVENT', which reads the agent's own payload and"
more "   answers in its protocol. The same guard, as Claude Code asks:"
printf '%s$ echo %s | hermes-hooks hook claude%s\n' "$bold" "'{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"rm -rf /\"}}'" "$off"
printf '%s\n' '{"hook_event_name":"PreToolUse","session_id":"demo","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}' |
	"$bin" --config agent-hooks/config.yaml hook claude --no-server

say "7. doctor checks every hook: present, executable, approved, unchanged, and replying"
more "   sensibly to a synthetic event."
show doctor

say "8. Changed your mind about a hook? revoke it: dispatch stops running it at once."
show revoke agent-hooks/log-orchestration.sh
show list

say "Done. Next: README.md (five-minute tutorial), agent-hooks/README.md (the hooks)."
