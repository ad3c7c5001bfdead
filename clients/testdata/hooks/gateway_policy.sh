#!/bin/sh
# Test hook for pre_gateway_dispatch: decides from the message's text.
# "skip …" skips, "rewrite X" rewrites to X, "allow …" allows, "crash"
# exits 3 with nothing on stdout; anything else: no opinion.
text=$(jq -r '.extra.text // ""')
case "$text" in
  skip*) jq -cn --arg r "$text" '{action: "skip", reason: $r}' ;;
  rewrite\ *) jq -cn --arg t "${text#rewrite }" '{action: "rewrite", text: $t}' ;;
  allow*) echo '{"action": "allow"}' ;;
  crash*) echo "policy crashed" >&2; exit 3 ;;
esac
exit 0
