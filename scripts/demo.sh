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
trap 'rm -rf "$HERMES_HOME"' EXIT
# A signal ends the demo through exit, so that the EXIT trap removes the
# throwaway HERMES_HOME: killed by it (a reader such as head closing the
# pipe: SIGPIPE), or trapped by the rm alone (Ctrl-C), sh would leave it
# behind, or run on after the interrupt.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM
# The demo decides consent itself: no ambient accept or safe mode.
unset HERMES_ACCEPT_HOOKS HERMES_SAFE_MODE
# Hooks the example config runs read these.
HERMES_HOOKS_LOG=$HERMES_HOME/logs/subagents.jsonl
export HERMES_HOOKS_LOG

if [ -t 1 ]; then bold=$(printf '\033[1m'); dim=$(printf '\033[2m'); off=$(printf '\033[0m'); else bold=; dim=; off=; fi

# say starts a narration paragraph, more continues it; show prints a
# command exactly as it is run (copy it into a shell in this directory,
# after the export below, and it does the same), then runs it.
say() { printf '\n%s%s%s\n' "$dim" "$*" "$off"; }
more() { printf '%s%s%s\n' "$dim" "$*" "$off"; }
show() {
	printf '%s$ %s --config agent-hooks/config.yaml %s%s\n' "$bold" "$shown" "$*" "$off"
	"$bin" --config agent-hooks/config.yaml "$@"
}
# pipe JSON CMD...: show and run  printf '%s\n' 'JSON' | hermes-hooks CMD...
pipe() {
	json=$1
	shift
	printf "%s\$ printf '%%s\\\\n' '%s' | %s --config agent-hooks/config.yaml %s%s\n" "$bold" "$json" "$shown" "$*" "$off"
	printf '%s\n' "$json" | "$bin" --config agent-hooks/config.yaml "$@"
}
# The binary as a reader in this directory would name it.
case $bin in "$PWD"/*) shown=${bin#"$PWD"/} ;; *) shown=$bin ;; esac

say "hermes-hooks demo — a throwaway HERMES_HOME, so your own ~/.hermes is never touched:"
printf '%s$ export HERMES_HOME=%s%s\n' "$bold" "$HERMES_HOME" "$off"
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
pipe '{"tool_name":"terminal","args":{"command":"ls -la"},"session_id":"demo"}' dispatch pre_tool_call --pretty

say "5. The agent asks before running 'rm -rf /': blocked, with the reason for the model."
pipe '{"tool_name":"terminal","args":{"command":"rm -rf /"},"session_id":"demo"}' dispatch pre_tool_call --pretty

more "   The same answer in Hermes' own wire shape (--format hermes), for a Hermes host:"
pipe '{"tool_name":"terminal","args":{"command":"rm -rf /"}}' dispatch pre_tool_call --format hermes

say "6. Inside Claude Code, Codex, Copilot or Cursor: 'hermes-hooks install claude' makes the"
more "   agent run 'hermes-hooks hook claude EVENT', which reads the agent's own payload and"
more "   answers in its protocol. The same guard, as Claude Code asks:"
pipe '{"hook_event_name":"PreToolUse","session_id":"demo","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}' hook claude --no-server

say "7. doctor checks every hook: present, executable, approved, unchanged, and replying"
more "   sensibly to a synthetic event. Its ⚠ lines are about this example only: it names"
more "   its scripts relative to the repository, so that the demo runs from a clone; in your"
more "   own config write absolute paths, or ones starting with ~/ (as the tutorial does)."
show doctor

say "8. Changed your mind about a hook? revoke it: dispatch stops running it at once."
show revoke agent-hooks/log-orchestration.sh
show list

say "Done. Next: README.md (five-minute tutorial), agent-hooks/README.md (the hooks)."
