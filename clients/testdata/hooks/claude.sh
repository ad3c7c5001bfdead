#!/bin/sh
# Test hook, Claude dialect: prints the field "claude_reply" as its reply and
# appends the field "claude_env" (an export line) to $CLAUDE_ENV_FILE.
in=$(cat)
line=$(printf '%s' "$in" | jq -r '.claude_env // empty')
if [ -n "$line" ] && [ -n "${CLAUDE_ENV_FILE:-}" ]; then
  printf '%s\n' "$line" >> "$CLAUDE_ENV_FILE"
fi
printf '%s' "$in" | jq -c '.claude_reply // empty'
