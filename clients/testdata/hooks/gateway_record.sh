#!/bin/sh
# Test hook: writes its payload into a new file NAME.* of the directory DIR
# (started as `gateway_record.sh DIR NAME`). With the field "hold" (a FIFO),
# it first waits until the test writes to that FIFO.
in=$(cat)
hold=$(printf '%s' "$in" | jq -r '.extra.hold // empty')
if [ -n "$hold" ]; then
  cat "$hold" >/dev/null
fi
f=$(mktemp "$1/$2.XXXXXX") && printf '%s' "$in" > "$f"
