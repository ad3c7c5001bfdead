#!/bin/sh
# claude-bash-guard.sh — a Claude Code PreToolUse hook (matcher: Bash).
#
# Written for the Claude Code protocol, so the same file works in a
# .claude/settings.json and, declared under `PreToolUse:` in a hermes-hooks
# config, for a Hermes host too: hermes-hooks then sends Claude-shaped stdin
# (tool_name "Bash" for Hermes' terminal) and reads the Claude-shaped reply.
#
#   rm -rf /, ~, $HOME, a system directory (and the spellings block-rm-rf.sh
#   knows)                                 → permissionDecision "deny"
#   git push --force / -f / +refspec,
#   git reset --hard                       → permissionDecision "ask"
#   anything else                          → no output (no opinion)
#
# Deny wins over ask when one command line does both. Needs jq; without it
# the script exits 1 with the reason on stderr, which Claude Code (and
# hermes-hooks for this dialect) treats as a non-blocking error.

set -eu

if ! command -v jq >/dev/null 2>&1; then
	echo "claude-bash-guard.sh: jq is required to read the hook payload but is not on PATH (install jq)" >&2
	exit 1
fi

# Read all of stdin first: the host writes the payload and then waits for us.
payload=$(cat)

# The same command-line reader as block-rm-rf.sh, kept in this file so each
# example stands alone (copy one script, not two). It splits on quotes,
# `;` `&&` `||` `|` `&` `(` `$(` and newlines, looks through sudo, env,
# `sh -c` and eval, and does not expand variables: a guard against
# accidents, not a sandbox.
program=$(
	cat <<'JQ'
def tokens:
  [match("'[^']*'?|\"(?:\\\\.|[^\"\\\\])*\"?|\\\\(?:.|\\n)?|&>>|&>|>>|>\\||>&|<<<|<<|<>|<&|[<>]|&&|\\|\\||[;&|()`\\n]|\\$\\(|[ \\t\\r]+|[^ \\t\\r\\n;&|()`'\"\\\\<>$]+|\\$"; "g").string];

def unquote:
  if startswith("'") then .[1:] | rtrimstr("'")
  elif startswith("\"") then .[1:] | rtrimstr("\"") | gsub("\\\\(?<c>[$`\"\\\\])"; .c)
  elif . == "\\\n" then ""
  elif startswith("\\") then .[1:]
  else . end;

def flush:
  if .w == null then .
  elif .r != null then .cur.redirs += [{op: .r, target: .w}] | .r = null | .w = null
  else .cur.words += [.w] | .w = null end;

def commands:
  reduce (tokens[], "\n") as $t ({out: [], cur: {words: [], redirs: []}, w: null, r: null};
    if ($t | test("^(&&|\\|\\||[;&|()`\\n]|\\$\\()$")) then
      flush | .out += [.cur] | .cur = {words: [], redirs: []} | .r = null
    elif ($t | test("^(&>>|&>|>>|>\\||>&|<<<|<<|<>|<&|[<>])$")) then
      (if (.w // "" | test("^[0-9]+$")) then .w = null else flush end) | .r = $t
    elif ($t | test("^[ \\t\\r]+$")) then flush
    else .w = ((.w // "") + ($t | unquote))
    end)
  | .out[] | select(.words != [] or .redirs != []);

def is_cmd($names): test("^(.*/)?(" + $names + ")$");

def peel:
  if length == 0 then empty
  elif .[0] | test("^[A-Za-z_][A-Za-z0-9_]*=") then .[1:] | peel
  elif .[0] | is_cmd("(ba|da|k|z)?sh") then
    (to_entries | map(select(.value | test("^-[A-Za-z]*c[A-Za-z]*$"))) | first | .key) as $i
    | if $i != null and .[$i + 1] != null then .[$i + 1] | commands | .words | peel else empty end
  elif .[0] | is_cmd("eval") then .[1:] | join(" ") | commands | .words | peel
  elif .[0] | is_cmd("sudo|doas|env|command|builtin|exec|nohup|time|nice|ionice|chrt|taskset|stdbuf|timeout|xargs|busybox") then
    (.[1:] | to_entries | map(select(.value | is_cmd("rm|git|(ba|da|k|z)?sh|eval"))) | first | .key) as $j
    | if $j != null then .[$j + 1:] | peel else empty end
  else . end;

def canon:
  gsub("\\$\\{HOME\\}"; "$HOME")
  | if startswith("/") then
      reduce (split("/")[]) as $p ([];
        if $p == "" or $p == "." then . elif $p == ".." then .[:-1] else . + [$p] end)
      | "/" + join("/")
    else gsub("/+"; "/") end
  | until(test("/(\\.|\\*)?$") | not; sub("/(\\.|\\*)?$"; ""));

def danger($home):
  select(length > 0) | canon
  | if . == "" then "the whole filesystem"
    elif . == "~" or . == "$HOME" or ($home != "" and . == ($home | canon)) then "your home directory"
    elif test("^~[A-Za-z0-9._-]+$") then "a home directory"
    elif test("^/(bin|boot|dev|etc|home|lib|lib32|lib64|libx32|opt|proc|root|run|sbin|srv|sys|usr|var)$") then "a system directory"
    else empty end;

def rm_refusal($home):
  (.[1:] | reduce .[] as $a ({opts: true, r: false, targets: []};
      if .opts and $a == "--" then .opts = false
      elif .opts and ($a | startswith("--")) then
        (if ($a | length) >= 3 and ("--recursive" | startswith($a)) then .r = true else . end)
      elif .opts and ($a | test("^-.")) then
        (if ($a | test("[rR]")) then .r = true else . end)
      else .targets += [$a] end)) as $rm
  | select($rm.r)
  | first($rm.targets[] as $t | $t | danger($home) | {target: $t, what: .});

# git's own options come before the subcommand; a few take a value.
def git_sub:
  if length == 0 then empty
  elif .[0] | test("^(-C|-c|--git-dir|--work-tree|--namespace|--config-env|--super-prefix|--attr-source)$") then .[2:] | git_sub
  elif .[0] | startswith("-") then .[1:] | git_sub
  else . end;

# One verdict per risky call: deny for rm, ask for history-destroying git.
def verdict($home):
  . as $call
  | if .[0] | is_cmd("rm") then
      rm_refusal($home)
      | {decision: "deny",
         reason: "claude-bash-guard: refused \"\($call | join(" "))\": it recursively deletes \(.target) (\(.what)). Delete a narrower path instead."}
    elif .[0] | is_cmd("git") then
      .[1:] | git_sub
      | if .[0] == "push" and any(.[1:][]; test("^--force") or test("^-[A-Za-z0-9]*f[A-Za-z0-9]*$") or startswith("+")) then
          {decision: "ask",
           reason: "claude-bash-guard: \"\($call | join(" "))\" force-pushes, which can overwrite commits on the remote that exist nowhere else. Confirm that this is intended."}
        elif .[0] == "reset" and any(.[1:][]; . == "--hard") then
          {decision: "ask",
           reason: "claude-bash-guard: \"\($call | join(" "))\" throws away uncommitted changes in the work tree for good. Confirm that this is intended."}
        else empty end
    else empty end;

objects | .tool_input | objects | .command | strings
| [commands | .words | peel | verdict($home)]
| (map(select(.decision == "deny")) + map(select(.decision == "ask"))) | first // empty
| {hookSpecificOutput: {hookEventName: "PreToolUse",
                        permissionDecision: .decision,
                        permissionDecisionReason: .reason}}
JQ
)

if ! reply=$(printf '%s' "$payload" | jq -c --arg home "${HOME:-}" "$program"); then
	echo "claude-bash-guard.sh: could not analyse the hook payload (jq failed, see above)" >&2
	exit 1
fi
if [ -n "$reply" ]; then
	printf '%s\n' "$reply"
fi
