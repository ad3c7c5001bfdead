#!/bin/sh
# make bench: build the baselines of ../shared/bench and run them side by
# side with hermes-hooks on the same hook; prints one table of medians and
# ratios. Pass options through BENCHFLAGS (e.g. BENCHFLAGS="-rounds 3").
set -eu
cd "$(dirname "$0")/.."
# BENCHFLAGS holds several flags: split it on purpose.
# shellcheck disable=SC2086
exec go run ./bench -bin bin/hermes-hooks ${BENCHFLAGS:-}
