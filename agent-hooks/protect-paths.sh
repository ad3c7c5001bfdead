#!/bin/sh
# protect-paths.sh — pre_tool_call hook (matcher: write_file|patch|terminal),
# Hermes dialect.
#
# Keeps the agent's writes inside a set of allowed directories: by default
# the session's working directory (the payload's cwd), or the colon-separated
# list in HERMES_PROTECT_ALLOWED (absolute paths; relative ones are taken
# against cwd), e.g. HERMES_PROTECT_ALLOWED=/home/me/project:/tmp.
#
#   write_file, patch  the target `path` (and every file a V4A patch names),
#                      resolved against cwd with `.` and `..` folded away
#                      (the file need not exist) — block when it lies
#                      outside every allowed directory.
#   terminal           the targets of `>`, `>>`, `&>`, `>|` redirections and
#                      of `tee`, with `cd DIR` earlier in the line followed —
#                      same rule. /dev/null, /dev/std{out,err}, /dev/tty and
#                      /dev/fd/N are always fine.
#
# The terminal check is best effort, NOT a sandbox: cp, mv, dd, sed -i, a
# script, or a target spelled with a variable other than $HOME/$PWD are not
# seen, and symlinks are not followed. Use it to catch mistakes, and a
# container or a read-only mount to contain an agent.
#
# Reply: {"action":"block","message":"protect-paths: <path> is outside the
# allowed paths (<list>); set HERMES_PROTECT_ALLOWED to widen them"} or
# nothing. Needs jq; without it the script exits 1 with the reason on stderr
# (declare the entry `fail_closed: true` so that this blocks).

set -eu

if ! command -v jq >/dev/null 2>&1; then
	echo "protect-paths.sh: jq is required to read the hook payload but is not on PATH (install jq)" >&2
	exit 1
fi

# Read all of stdin before anything else: the host writes the payload and
# then waits for our answer.
payload=$(cat)

# The command-line reader (tokens … commands) is the one block-rm-rf.sh
# uses, kept in this file so each example stands alone.
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

# The commands one simple command runs, looking through assignments,
# `sh -c STRING`, eval and wrappers (sudo tee /etc/x). The outer command
# keeps its own redirections.
def inner:
  .words as $w
  | if ($w | length) == 0 then .
    elif $w[0] | test("^[A-Za-z_][A-Za-z0-9_]*=") then .words = $w[1:] | inner
    elif $w[0] | is_cmd("(ba|da|k|z)?sh") then
      (.words = []),
      ((($w | to_entries | map(select(.value | test("^-[A-Za-z]*c[A-Za-z]*$"))) | first | .key) as $i
        | if $i != null and $w[$i + 1] != null then $w[$i + 1] | commands | inner else empty end))
    elif $w[0] | is_cmd("eval") then (.words = []), ($w[1:] | join(" ") | commands | inner)
    elif $w[0] | is_cmd("sudo|doas|env|command|builtin|exec|nohup|time|nice|ionice|chrt|taskset|stdbuf|timeout|xargs|busybox") then
      (($w[1:] | to_entries | map(select(.value | is_cmd("tee|(ba|da|k|z)?sh|eval"))) | first | .key) as $j
        | if $j != null then .words = $w[$j + 1:] | inner else .words = [] end)
    else . end;

# The words naming files one command writes: redirection targets (not
# descriptor copies such as 2>&1) and tee's file arguments.
def written:
  (.redirs[] | select(.op | test(">")) | select(.op != ">&" or (.target | test("^([0-9]+|-)$") | not)) | .target),
  (select(.words[0] // "" | is_cmd("tee"))
   | .words[1:] | reduce .[] as $a ({opts: true, files: []};
       if .opts and $a == "--" then .opts = false
       elif .opts and ($a | test("^-.")) then .
       elif $a == "-" then .
       else .files += [$a] end)
   | .files[]);

# Lexical absolute path: relative to $base, "." and ".." folded, no
# filesystem access (the file usually does not exist yet).
def abspath($base):
  (if startswith("/") then . else $base + "/" + . end)
  | reduce (split("/")[]) as $p ([];
      if $p == "" or $p == "." then . elif $p == ".." then .[:-1] else . + [$p] end)
  | "/" + join("/");

def tilde($home):
  if $home != "" and (. == "~" or startswith("~/")) then $home + .[1:] else . end;

# A shell word's value when we can know it: ~, $HOME and $PWD expanded;
# null when it depends on anything else ($VAR, $(...), ~user).
def shell_value($home; $dir):
  tilde($home)
  | if $home != "" and test("^\\$(HOME|\\{HOME\\})(/|$)") then sub("^\\$(HOME|\\{HOME\\})"; $home)
    elif $dir != null and test("^\\$(PWD|\\{PWD\\})(/|$)") then sub("^\\$(PWD|\\{PWD\\})"; $dir)
    else . end
  | if test("[$`]") or startswith("~") then null else . end;

# Absolute paths a terminal command line writes to. `cd DIR` moves the base
# of later relative targets; after a cd we cannot follow, they are skipped.
def terminal_paths($home; $cwd):
  reduce (commands | inner) as $c ({dir: $cwd, out: []};
    .dir as $dir
    | .out += [$c | written | shell_value($home; $dir) | select(. != null)
               | select(startswith("/") or $dir != null) | abspath($dir)]
    | if ($c.words[0] // "") == "cd" then
        ($c.words[1] // $home) as $to
        | .dir = (if $to == "" or $to == "-" or $dir == null then null
                  else ($to | shell_value($home; $dir) | if . == null then null else abspath($dir) end) end)
      else . end)
  | .out[];

# Files write_file or patch touch: `path` (`file_path` for Claude-named
# arguments) and the "*** Add/Update/Delete File:" and "*** Move to:"
# headers of a V4A patch.
def edit_paths($home; $cwd):
  .tool_input | objects
  | ((.path, .file_path | strings | select(length > 0)),
     (.patch | strings | split("\n")[]
      | capture("^\\*\\*\\* (?:(?:Add|Update|Delete) File|Move to): *(?<p>.*[^ \\t\\r])").p))
  | tilde($home) | abspath($cwd);

def always_fine: test("^/dev/(null|stdout|stderr|tty|fd/[0-9]+)$");

def inside($roots): . as $p | any($roots[]; . as $r | $r == "/" or $p == $r or ($p | startswith($r + "/")));

objects
| ((.cwd | strings | select(length > 0)) // $pwd | abspath("/")) as $cwd
| ($allowed | split(":") | map(select(length > 0) | tilde($home) | abspath($cwd))) as $listed
| (if $listed == [] then [$cwd] else $listed end) as $roots
| [ if .tool_name == "terminal" then (.tool_input | objects | .command | strings | terminal_paths($home; $cwd))
    elif .tool_name == "write_file" or .tool_name == "patch" then edit_paths($home; $cwd)
    else empty end
    | select(always_fine | not) | select(inside($roots) | not) ]
| first // empty
| {action: "block",
   message: "protect-paths: \(.) is outside the allowed paths (\($roots | join(", "))); set HERMES_PROTECT_ALLOWED to widen them"}
JQ
)

if ! reply=$(printf '%s' "$payload" | jq -c --arg home "${HOME:-}" --arg pwd "$PWD" \
	--arg allowed "${HERMES_PROTECT_ALLOWED:-}" "$program"); then
	echo "protect-paths.sh: could not analyse the hook payload (jq failed, see above)" >&2
	exit 1
fi
if [ -n "$reply" ]; then
	printf '%s\n' "$reply"
fi
