#!/bin/sh
# owner-dm-only.sh — pre_gateway_dispatch hook, Hermes dialect (through the
# hermes-hooks plugin: `hermes-hooks install hermes`).
#
# Only the owners may talk to the agent in a direct message: anyone else's
# DM is skipped before Hermes' gateway authorizes it, pairs it or hands it to
# the agent. Group chats and the owners' own DMs pass untouched (no opinion,
# so a later pre_gateway_dispatch hook still decides).
#
# Owners: HERMES_GATEWAY_OWNERS, the user ids (as the platform sends them:
# Telegram's numeric id, Discord's snowflake, ...) separated by spaces or
# commas. The payload's extra carries the message: platform, chat_id,
# chat_type ("dm", "group", ...), chat_name, thread_id, user_id, user_name,
# message_id and text.
#
# Reply: {"action":"skip","reason":"owner-dm-only: ..."} or nothing. Needs
# jq. Without it, or without HERMES_GATEWAY_OWNERS, the script exits 1 with
# the reason on stderr; declare the entry `fail_closed: true` so that a
# broken policy drops the messages instead of letting every DM through.

set -euf

if ! command -v jq >/dev/null 2>&1; then
	echo "owner-dm-only.sh: jq is required to read the hook payload but is not on PATH (install jq)" >&2
	exit 1
fi

# Read the whole payload first: the dispatcher never blocks on a full pipe.
payload=$(cat)

owners=$(printf '%s' "${HERMES_GATEWAY_OWNERS:-}" | tr ',' ' ')
if [ -z "$(printf '%s' "$owners" | tr -d ' \t')" ]; then
	echo "owner-dm-only.sh: HERMES_GATEWAY_OWNERS is not set (the owners' user ids)" >&2
	exit 1
fi

chat_type=$(printf '%s' "$payload" | jq -r '.extra.chat_type // "" | tostring')
[ "$chat_type" = dm ] || exit 0

user=$(printf '%s' "$payload" | jq -r '.extra.user_id // "" | tostring')
for owner in $owners; do
	[ "$user" = "$owner" ] && exit 0
done

printf '%s' "$payload" | jq -c '{action: "skip",
  reason: ("owner-dm-only: direct message from \(.extra.user_id // "an unknown user") on \(.extra.platform // "an unknown platform"), who is not an owner")}'
