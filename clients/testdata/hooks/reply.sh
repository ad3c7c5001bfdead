#!/bin/sh
# Test hook, Hermes dialect: prints the event's field "reply" (or "replyN"
# when started as `reply.sh N`) as its reply.
exec jq -c --arg k "reply${1:-}" '.extra[$k] // empty'
