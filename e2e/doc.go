//go:build e2e

// Package e2e runs hermes-hooks under the real Claude Code CLI, offline.
//
// It is compiled only with the e2e build tag (make e2e, or
// go test -tags e2e -count=1 -v ./e2e/), never by go test ./... nor
// make test: it needs Claude Code from npm (about 250 MB, downloaded once).
// Each case is one `claude -p` session in a project whose
// .claude/settings.json runs `hermes-hooks hook claude` and whose
// .hermes/hooks.yaml holds Hermes-dialect hooks: a guard that refuses
// rm -rf, a context hook, and a hook nobody approved.
//
// # Contract
//
//   - Claude Code talks to nobody but the test: ANTHROPIC_BASE_URL points
//     at a scripted fake of the Anthropic Messages API on 127.0.0.1, every
//     other connection goes through a proxy that refuses it (and records
//     it), and the run uses a throwaway HOME and HERMES_HOME, so neither
//     your Claude Code settings nor your hermes-hooks approvals are read or
//     written.
//   - The fake model asks for exactly the Bash commands a case scripts,
//     and a destructive one only on a path inside the test's temporary
//     directory: if the guard under test failed, Claude Code would run it.
//   - What is asserted is what reached the model (the fake records every
//     request body) and what is on disk afterwards, never Claude Code's
//     wording.
//   - No Claude Code, no test: without npm, when the package cannot be
//     installed, or when the claude binary does not start, the test skips
//     with the reason. A failure is a failure of hermes-hooks' Claude Code
//     integration (or of this harness), never of the network.
//
// Environment:
//
//	HERMES_E2E_CLAUDE=/path/to/claude  use this Claude Code binary, no npm
//	HERMES_E2E_CLAUDE_VERSION=latest   npm install this version or tag
//	HERMES_E2E_UPDATE=1                reinstall the cached npm package
//	HERMES_E2E_KEEP=1                  keep the temporary directories (logged)
//
// The npm install is cached in $(os.UserCacheDir)/hermes-hooks-e2e/npm-default
// (npm-VERSION with HERMES_E2E_CLAUDE_VERSION) and reused as long as its
// claude binary starts. Without a version npm picks the newest release whose
// "engines" the local Node satisfies, which on an older Node is not the
// newest release.
package e2e
