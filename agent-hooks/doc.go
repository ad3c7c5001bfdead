// Package agenthooks is the home of the ready-to-use examples: the
// example hook scripts (block-rm-rf.sh, auto-format.sh,
// inject-cwd-context.sh, log-orchestration.sh, protect-paths.sh,
// claude-bash-guard.sh), the example config.yaml that wires them, the
// ready-made rule files (rules/*.yaml), and the tests that run every
// script and rule file through the real `hermes-hooks dispatch`. See
// README.md in this directory.
//
// Its one piece of Go is the rule files built into the binary
// (builtin.go): `rules: [builtin:force-push]` in a config reads this
// package's copy, so that a binary installed without a checkout has them.
// It is a leaf: data and the standard library only, so that hookconfig,
// which reads configs, may import it.
package agenthooks
