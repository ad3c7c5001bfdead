#!/bin/sh
# inject-cwd-context.sh — pre_llm_call hook, Hermes dialect.
#
# Before each model call, tells the model which files in its working
# directory's git work tree are modified, added or untracked, so it does not
# lose track of its own unfinished edits (or trample someone else's):
#
#   {"context": "git status --porcelain in /path/to/cwd:\n M main.go\n?? notes.txt"}
#
# The listing stops after 50 lines with a "… N more" line, so a huge
# untracked directory cannot flood the prompt. Silent when the payload's cwd
# is missing, not inside a git work tree, or clean. Needs jq and git; without
# one it exits 1 with the reason on stderr (a pre_llm_call failure never
# stops the agent).

set -eu

for tool in jq git; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "inject-cwd-context.sh: $tool is required but is not on PATH (install $tool)" >&2
		exit 1
	fi
done

# Read all of stdin first: the host writes the payload and then waits.
payload=$(cat)

if ! cwd=$(printf '%s' "$payload" | jq -r 'objects | .cwd | strings'); then
	echo "inject-cwd-context.sh: could not read the hook payload (jq failed, see above)" >&2
	exit 1
fi
[ -n "$cwd" ] && [ -d "$cwd" ] || exit 0

# Outside a work tree (or in a bare repository) there is nothing to say.
[ "$(git -C "$cwd" rev-parse --is-inside-work-tree 2>/dev/null)" = true ] || exit 0

# GIT_OPTIONAL_LOCKS=0: a plain `git status` refreshes the index and takes
# index.lock to do so, which can make the agent's own git command, running
# at the same moment, fail with "index.lock: File exists".
if ! status=$(GIT_OPTIONAL_LOCKS=0 git -C "$cwd" status --porcelain); then
	echo "inject-cwd-context.sh: git status failed in $cwd" >&2
	exit 1
fi
[ -n "$status" ] || exit 0

printf '%s\n' "$status" | jq -Rsc --arg cwd "$cwd" --argjson max 50 '
	split("\n") | map(select(length > 0)) as $lines
	| ($lines | length) as $n
	| {context: ("git status --porcelain in \($cwd):\n"
	             + ($lines[:$max] | join("\n"))
	             + (if $n > $max then "\n… \($n - $max) more" else "" end))}'
