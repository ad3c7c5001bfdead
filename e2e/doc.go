//go:build e2e

// Package e2e runs hermes-hooks under the real Claude Code and Codex CLIs,
// offline.
//
// It is compiled only with the e2e build tag (make e2e, or
// go test -tags e2e -count=1 -v ./e2e/), never by go test ./... nor
// make test: it needs Claude Code and Codex from npm (about 250 MB and
// 300 MB, downloaded once). Each case is one `claude -p` (TestClaudeCode)
// or `codex exec` (TestCodex) session in a project whose
// .claude/settings.json or .codex/hooks.json, written by `hermes-hooks
// install AGENT --project P`, runs `hermes-hooks hook AGENT` and whose
// .hermes/hooks.yaml holds Hermes-dialect hooks: a guard that refuses
// rm -r (and so rm -rf), a context hook, and a hook nobody approved.
//
// Codex runs a project's hooks only once the user has trusted the project
// and each hook definition (its /hooks review, stored as a hash in
// config.toml). TestCodex first shows that Codex runs none of them
// untrusted, then trusts exactly the entries hermes-hooks installed
// through Codex's own `codex app-server` (hooks/list gives each hook's key
// and hash, config/batchWrite stores them), as a Codex client does.
//
// # Contract
//
//   - The agent talks to nobody but the test: Claude Code's
//     ANTHROPIC_BASE_URL points at a scripted fake of the Anthropic
//     Messages API on 127.0.0.1, Codex's model provider (config.toml in a
//     throwaway CODEX_HOME) at a scripted fake of the OpenAI Responses
//     API; every other connection goes through a proxy that refuses it
//     (and records it), and the run uses a throwaway HOME and HERMES_HOME,
//     so neither your agents' settings nor your hermes-hooks approvals are
//     read or written.
//   - The fake model asks for exactly the shell commands a case scripts,
//     and a destructive one only on a path inside the test's temporary
//     directory: if the guard under test failed, the agent would run it.
//     (Codex 0.169 refuses rm -f style commands by itself, never rm -r.)
//   - What is asserted is what reached the model (the fake records every
//     request body) and what is on disk afterwards, never Claude Code's
//     wording.
//   - No agent, no test: without npm, when the package cannot be
//     installed, or when its binary does not start, the test skips with
//     the reason. A failure is a failure of hermes-hooks' integration with
//     that agent (or of this harness), never of the network.
//
// Environment:
//
//	HERMES_E2E_CLAUDE=/path/to/claude  use this Claude Code binary, no npm
//	HERMES_E2E_CLAUDE_VERSION=latest   npm install this version or tag
//	HERMES_E2E_CODEX=/path/to/codex    use this Codex binary, no npm
//	HERMES_E2E_CODEX_VERSION=latest    npm install this version or tag (default 0.169.0)
//	HERMES_E2E_UPDATE=1                reinstall the cached npm packages
//	HERMES_E2E_KEEP=1                  keep the temporary directories (logged)
//
// The npm installs are cached in $(os.UserCacheDir)/hermes-hooks-e2e/:
// npm-default for Claude Code (npm-VERSION with HERMES_E2E_CLAUDE_VERSION),
// codex-npm-VERSION for Codex, and reused as long as their binary starts.
// Without a version npm picks the newest release whose "engines" the local
// Node satisfies, which on an older Node is not the newest release. Codex
// is pinned to the release agents/codex.go was written against.
package e2e
