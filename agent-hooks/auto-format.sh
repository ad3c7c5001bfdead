#!/bin/sh
# auto-format.sh — post_tool_call hook (matcher: write_file|patch), Hermes
# dialect.
#
# After the agent writes a file, runs the formatter for its type so the next
# read, diff and commit see canonical code, and tells the model when its
# file changed under it (otherwise its next patch may target text that is
# no longer there):
#
#   .go                                  gofmt -w      (comes with Go)
#   .sh .bash                            shfmt -w      (only if installed)
#   .py .pyi                             black -q      (only if installed)
#   .js .jsx .mjs .cjs .ts .tsx .json
#   .css .scss .less .html .vue .md
#   .yaml .yml                           prettier --write (only if installed;
#                                        never through npx, which may
#                                        download)
#
# The file is the tool's `path` (or `file_path`), plus every file a V4A
# patch adds, updates or moves to; relative paths are taken against the
# payload's cwd. Prints {"context":"auto-format: gofmt reformatted <path>"}
# only when a file actually changed; silent when the file is missing, of
# another type, has no formatter installed, or was already formatted. A
# formatter error (say, a syntax error) leaves the file alone and is
# reported on stderr. Needs jq (exits 1 with the reason on stderr without it).

set -eu

if ! command -v jq >/dev/null 2>&1; then
	echo "auto-format.sh: jq is required to read the hook payload but is not on PATH (install jq)" >&2
	exit 1
fi

# Read all of stdin first: the host writes the payload and then waits.
payload=$(cat)

# One absolute path per line. Paths containing a newline are not supported
# (no formatter would be happy with them either).
if ! files=$(printf '%s' "$payload" | jq -r '
	objects
	| ((.cwd | strings) // "") as $cwd
	| .tool_input | objects
	| ((.path, .file_path | strings),
	   (.patch | strings | split("\n")[]
	    | capture("^\\*\\*\\* (?:(?:Add|Update) File|Move to): *(?<p>.*[^ \\t\\r])").p))
	| select(length > 0)
	| if startswith("/") or $cwd == "" then . else $cwd + "/" + . end'); then
	echo "auto-format.sh: could not read the hook payload (jq failed, see above)" >&2
	exit 1
fi

changed=""
# A here-document, not a pipe, feeds the loop so that it runs in this shell
# and $changed survives it.
while IFS= read -r file; do
	[ -f "$file" ] || continue
	case $file in
	*.go) tool=gofmt; set -- gofmt -w ;;
	*.sh | *.bash) tool=shfmt; set -- shfmt -w ;;
	*.py | *.pyi) tool=black; set -- black -q ;;
	*.js | *.jsx | *.mjs | *.cjs | *.ts | *.tsx | *.json | *.css | *.scss | *.less | *.html | *.vue | *.md | *.yaml | *.yml)
		tool=prettier; set -- prettier --write
		;;
	*) continue ;;
	esac
	command -v "$tool" >/dev/null 2>&1 || continue
	# Formatters rewrite files even when nothing changes, so compare content
	# rather than trusting mtimes or exit codes.
	before=$(cksum <"$file")
	# </dev/null: the loop's stdin is the list of files, not the formatter's.
	if ! "$@" "$file" </dev/null >/dev/null; then
		echo "auto-format.sh: $tool could not format $file; left it as it was" >&2
		continue
	fi
	if [ "$(cksum <"$file")" != "$before" ]; then
		changed="${changed:+$changed
}auto-format: $tool reformatted $file"
	fi
done <<EOF
$files
EOF

if [ -n "$changed" ]; then
	jq -cn --arg context "$changed" '{context: $context}'
fi
