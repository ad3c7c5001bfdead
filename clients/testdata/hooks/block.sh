#!/bin/sh
# The README's example guard: refuses terminal commands containing "rm -rf".
command=$(jq -r '.tool_input.command // ""')
case "$command" in
  *"rm -rf"*) echo '{"action": "block", "message": "rm -rf is not allowed here"}' ;;
esac
exit 0
