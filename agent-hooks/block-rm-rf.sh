#!/bin/sh
# block-rm-rf.sh — pre_tool_call hook (matcher: terminal), Hermes dialect.
#
# Refuses a terminal command that recursively deletes the filesystem root,
# a home directory or a top-level system directory: `rm -rf /` and friends
# (`rm -fr /`, `rm -r -f /*`, `rm -rf ~`, `rm -rf $HOME`, `sudo rm -rf /`,
# `rm --recursive --force --no-preserve-root /`, `sh -c 'rm -rf /'`, the same
# after `;`, `&&`, `||` or `|`). Everything else, including `rm -rf ./build`
# and `rm -rf /tmp/x`, passes untouched.
#
# Reply: {"action":"block","message":"block-rm-rf: refused ..."} or nothing.
# Needs jq. Without it (or on a payload jq cannot read) the script refuses
# the call itself, with the reason, and says so on stderr: a guard that
# cannot read the command must block, not allow. (Declare the entry
# `fail_closed: true` too, so that a crash or a timeout blocks as well.)

set -eu

# refuse REASON: block the call with REASON (plain text, no quotes or
# backslashes: it is written into the JSON reply as is). Shell builtins
# only: it must work when PATH holds nothing.
refuse() {
	echo "block-rm-rf.sh: $1" >&2
	printf '{"action":"block","message":"block-rm-rf: %s"}\n' "$1"
	exit 0
}

if ! command -v jq >/dev/null 2>&1; then
	refuse "jq is not installed (not on PATH), so this guard cannot read the command; install jq (apt-get install jq, brew install jq)"
fi

# Read the whole payload before doing anything else, so the dispatcher never
# blocks on a full pipe and never sees a half-read stdin.
payload=$(cat)

# The analysis is a jq program rather than shell code: jq is already needed
# for the JSON, and its regexes split a command line into words and simple
# commands far more reliably than `case` patterns or `set -- $cmd` could.
# It understands quotes, backslashes, `;` `&&` `||` `|` `&` `(` `$(` and
# newlines; it does not expand variables or globs, it recognises the spelled
# forms of the home directory instead. It is a guard against accidents, not
# a sandbox: an agent determined to delete / can always obfuscate it.
program=$(
	cat <<'JQ'
# Shell tokens: quoted strings, escapes, operators, blanks, plain runs.
def tokens:
  [match("'[^']*'?|\"(?:\\\\.|[^\"\\\\])*\"?|\\\\(?:.|\\n)?|&>>|&>|>>|>\\||>&|<<<|<<|<>|<&|[<>]|&&|\\|\\||[;&|()`\\n]|\\$\\(|[ \\t\\r]+|[^ \\t\\r\\n;&|()`'\"\\\\<>$]+|\\$"; "g").string];

# Quote removal, as the shell does it.
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

# The simple commands of a command line: [{words: [...], redirs: [...]}].
def commands:
  reduce (tokens[], "\n") as $t ({out: [], cur: {words: [], redirs: []}, w: null, r: null};
    if ($t | test("^(&&|\\|\\||[;&|()`\\n]|\\$\\()$")) then
      flush | .out += [.cur] | .cur = {words: [], redirs: []} | .r = null
    elif ($t | test("^(&>>|&>|>>|>\\||>&|<<<|<<|<>|<&|[<>])$")) then
      # A file descriptor number glued to the operator (2>) is not a word.
      (if (.w // "" | test("^[0-9]+$")) then .w = null else flush end) | .r = $t
    elif ($t | test("^[ \\t\\r]+$")) then flush
    else .w = ((.w // "") + ($t | unquote))
    end)
  | .out[] | select(.words != [] or .redirs != []);

def is_cmd($names): test("^(.*/)?(" + $names + ")$");

# The commands actually run by one simple command, looking through variable
# assignments, `sh -c STRING`, `eval` and wrappers such as sudo or env.
# Wrappers have options with values (sudo -u root), so rather than knowing
# each one's syntax we take the first following word that is rm or a shell.
def peel:
  if length == 0 then empty
  elif .[0] | test("^[A-Za-z_][A-Za-z0-9_]*=") then .[1:] | peel
  elif .[0] | is_cmd("(ba|da|k|z)?sh") then
    (to_entries | map(select(.value | test("^-[A-Za-z]*c[A-Za-z]*$"))) | first | .key) as $i
    | if $i != null and .[$i + 1] != null then .[$i + 1] | commands | .words | peel else empty end
  elif .[0] | is_cmd("eval") then .[1:] | join(" ") | commands | .words | peel
  elif .[0] | is_cmd("sudo|doas|env|command|builtin|exec|nohup|time|nice|ionice|chrt|taskset|stdbuf|timeout|xargs|busybox") then
    (.[1:] | to_entries | map(select(.value | is_cmd("rm|(ba|da|k|z)?sh|eval"))) | first | .key) as $j
    | if $j != null then .[$j + 1:] | peel else empty end
  else . end;

# Strip what does not change the target: doubled slashes, "." and ".."
# (lexically, for absolute paths), a trailing "/" and a trailing "/*"
# (deleting everything in a directory is as bad as deleting it).
def canon:
  gsub("\\$\\{HOME\\}"; "$HOME")
  | if startswith("/") then
      reduce (split("/")[]) as $p ([];
        if $p == "" or $p == "." then . elif $p == ".." then .[:-1] else . + [$p] end)
      | "/" + join("/")
    else gsub("/+"; "/") end
  | until(test("/(\\.|\\*)?$") | not; sub("/(\\.|\\*)?$"; ""));

# Why deleting this target is refused, or nothing when it is fine.
def danger($home):
  select(length > 0) | canon
  | if . == "" then "the whole filesystem"
    elif . == "~" or . == "$HOME" or ($home != "" and . == ($home | canon)) then "your home directory"
    elif test("^~[A-Za-z0-9._-]+$") then "a home directory"
    elif test("^/(bin|boot|dev|etc|home|lib|lib32|lib64|libx32|opt|proc|root|run|sbin|srv|sys|usr|var)$") then "a system directory"
    else empty end;

# rm's own option parsing: options may come anywhere before "--" (GNU rm
# permutes), short options cluster (-rf, -fR), long ones may be abbreviated
# (--rec). Recursion is what makes these targets fatal; -f only skips the
# prompts, so it is not required for a refusal.
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

objects | .tool_input | objects | .command | strings
| [commands | .words | peel | select(.[0] | is_cmd("rm")) as $call
   | $call | rm_refusal($home) | . + {call: ($call | join(" "))}]
| first // empty
| {action: "block",
   message: "block-rm-rf: refused \"\(.call)\": it recursively deletes \(.target) (\(.what)). Delete a narrower path instead."}
JQ
)

if ! reply=$(printf '%s' "$payload" | jq -c --arg home "${HOME:-}" "$program"); then
	refuse "could not analyse the hook payload (jq failed, see above)"
fi
if [ -n "$reply" ]; then
	printf '%s\n' "$reply"
fi
