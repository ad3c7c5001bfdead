// Package agenthooks holds no Go code: it is the home of the ready-to-use
// example hook scripts (block-rm-rf.sh, auto-format.sh,
// inject-cwd-context.sh, log-orchestration.sh, protect-paths.sh,
// claude-bash-guard.sh), the example config.yaml that wires them, and the
// tests that run every script through the real `hermes-hooks dispatch`.
// See README.md in this directory.
package agenthooks
