#!/bin/sh
# Test hook for pre_gateway_dispatch, after gateway_policy.sh: skips what
# that one allowed or rewrote (the first action must win).
text=$(jq -r '.extra.text // ""')
case "$text" in
  allow*|rewrite*) echo '{"action": "skip", "reason": "too late"}' ;;
esac
exit 0
