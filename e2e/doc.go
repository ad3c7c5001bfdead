//go:build e2e

// Package e2e runs hermes-hooks under the real Claude Code, Codex and
// Gemini CLIs, offline, and under a real Prometheus scraping serve.
//
// It is compiled only with the e2e build tag (make e2e, or
// go test -tags e2e -count=1 -v ./e2e/), never by go test ./... nor
// make test: it needs Claude Code, Codex and Gemini CLI from npm (about
// 250 MB, 300 MB and 100 MB, downloaded once). Each case is one `claude -p`
// (TestClaudeCode), `codex exec` (TestCodex) or `gemini -p --yolo`
// (TestGeminiCLI) session in a project whose .claude/settings.json,
// .codex/hooks.json or .gemini/settings.json, written by `hermes-hooks
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
// TestDoctorSwitches (doctor_switch_test.go) sets, step by step, the
// settings that turn all of an agent's hooks off (Claude Code's
// disableAllHooks, Codex's [features] hooks) in the user's and the
// project's files, as a user or a repository would, and asserts that
// doctor says "turns all hooks off" exactly when the real agent then did
// not run the user's guard (installed with install --user).
//
// TestRepoEnvClaude, TestRepoEnvGemini and TestRepoEnvQwen (repoenv_test.go)
// commit what a hostile repository would: a project's settings "env" or
// .env setting HERMES_SAFE_MODE or HERMES_HOME, which the agent puts into
// the environment of the user's hermes-hooks (installed with install
// --user); they assert that the rm -rf is still refused (by hook itself,
// naming the file), that the model reads why, and that doctor prints ✗.
//
// TestBOMAgentFiles (bom_test.go) saves the hook file install wrote for
// Gemini CLI, Qwen Code and Copilot CLI again with a UTF-8 byte order
// mark first and asserts that doctor says "fires" exactly when the real
// agent then ran the guard (agents.Agent.NoBOM: Gemini exits on such a
// file, Copilot runs none of its hooks, Qwen reads it).
//
// # Layout
//
// Each scenario is written once, in scenario_test.go (guard, ls, context,
// unapproved hook), against the agent interface; each agent's file is its
// adapter: how hermes-hooks is installed for it, how one prompt runs
// against a fake (an invocation: binary, arguments, environment), how the
// fake's recorded requests show what the model read, and the agent's own
// quirks (Cline's guard case, Codex's trust and rm -r cases, the
// post_tool_call context of Cline and Copilot). harness_test.go holds the
// project, homes, npm installs and Hermes hooks they share;
// fakeserver_test.go what the fake model APIs share (the request record,
// the refusing proxy, the script), one fake*_test.go per API.
//
// # Contract
//
//   - The agent talks to nobody but the test: Claude Code's
//     ANTHROPIC_BASE_URL points at a scripted fake of the Anthropic
//     Messages API on 127.0.0.1, Codex's model provider (config.toml in a
//     throwaway CODEX_HOME) at a scripted fake of the OpenAI Responses
//     API, Gemini CLI's GOOGLE_GEMINI_BASE_URL at a scripted fake of the
//     Gemini API (v1beta generateContent); every other connection goes
//     through a proxy that refuses it (and records it), and the run uses
//     a throwaway HOME and HERMES_HOME, so neither your agents' settings
//     nor your hermes-hooks approvals are read or written.
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
// TestCline drives the Cline CLI (npm cline, 3.x: the SDK-based CLI) with
// `cline --json PROMPT` in a project whose .clinerules/hooks/ holds the
// scripts `hermes-hooks install cline` writes, its openai-compatible
// provider (`cline auth ... -b URL`) pointed at the Chat Completions fake
// and --data-dir in the test's directory (which also keeps Cline from
// starting its detached hub daemon). Under cline 3 a refusing hook file
// ends the run (the model never reads the reason; Cline logs it), and the
// UserPromptSubmit file runs detached with its reply unread, so its context
// case uses a post_tool_call context hook.
//
// TestCopilotCLI drives `copilot -p PROMPT --allow-all-tools` (npm
// @github/copilot) in a project whose .github/hooks/hermes-hooks.json is
// written by `hermes-hooks install copilot`, against the Chat Completions
// fake as Copilot's BYOK provider (COPILOT_PROVIDER_BASE_URL, no GitHub
// login) with COPILOT_OFFLINE=1. Copilot runs a repository's hooks only in
// a trusted folder (the throwaway ~/.copilot/config.json lists the
// project in trustedFolders) and drops a command hook's output on
// UserPromptSubmit, so its context case too uses a post_tool_call context
// hook. Its native binary unpacks itself (about 235 MB) into
// COPILOT_PKG_CACHE_HOME, kept in the cache directory (copilot-pkg).
//
// TestPrometheus runs no agent: a real Prometheus (Debian's prometheus
// package, 2.42 on bookworm) scrapes `hermes-hooks serve --listen
// tcp://127.0.0.1:PORT` every second, the test fires pre_tool_call
// dispatches of each kind (blocked by a guard, allowed by a Claude-dialect
// hook, a hook that fails, a guard nobody approved, a repository's
// unapproved hook) and reads each count back from Prometheus' query API
// (sum(hermes_hooks_decisions_total{decision="block"}) and the per-hook
// families), polling until the scrape has them. Then every query of
// docs/grafana-dashboard.json runs in Prometheus (it must parse and find
// data), the dashboard's label_values variables must list the server and
// the event, and `promtool check metrics` must find no fault with a
// hermes_hooks_ family. The package is fetched with `apt-get download`
// and unpacked (dpkg-deb -x) into the cache directory (prometheus-deb),
// not installed: its install starts a system Prometheus on port 9090.
//
// TestOPA runs opa: entries (docs/opa.md) against a real Open Policy
// Agent server, v1.22.3, built by go install from the module proxy into
// the user cache directory (once; skipped when the build fails), started
// with a Rego policy and then with a bundle made by `opa build`: OPA's
// block, ask and undefined through `hook claude` and `dispatch`, a
// fail_closed block once OPA is stopped, and the two paths a team gets
// wrong (a misspelt package, which OPA answers undefined: test and doctor
// say so; the package above the policy's: a failed hook).
//
// Environment:
//
//	HERMES_E2E_CLAUDE=/path/to/claude  use this Claude Code binary, no npm
//	HERMES_E2E_CLAUDE_VERSION=latest   npm install this version or tag
//	HERMES_E2E_CODEX=/path/to/codex    use this Codex binary, no npm
//	HERMES_E2E_CODEX_VERSION=latest    npm install this version or tag (default 0.171.0)
//	HERMES_E2E_GEMINI=/path/to/gemini  use this Gemini CLI binary, no npm
//	HERMES_E2E_GEMINI_VERSION=latest   npm install this version or tag (default 0.61.0)
//	HERMES_E2E_CLINE=/path/to/cline    use this Cline CLI binary, no npm
//	HERMES_E2E_CLINE_VERSION=latest    npm install this version or tag (default 3.0.65)
//	HERMES_E2E_COPILOT=/path/to/copilot use this Copilot CLI binary, no npm
//	HERMES_E2E_COPILOT_VERSION=latest  npm install this version or tag (default 1.0.102)
//	HERMES_E2E_PROMETHEUS=/path/to/prometheus use this Prometheus (promtool beside it), no apt-get
//	HERMES_E2E_OPA=/path/to/opa        use this OPA binary, no go install
//	HERMES_E2E_UPDATE=1                reinstall the cached npm packages and Prometheus
//	HERMES_E2E_KEEP=1                  keep the temporary directories (logged)
//
// The npm installs are cached in $(os.UserCacheDir)/hermes-hooks-e2e/:
// npm-default for Claude Code (npm-VERSION with HERMES_E2E_CLAUDE_VERSION),
// codex-npm-VERSION for Codex, gemini-npm-VERSION for Gemini CLI, and
// reused as long as their binary starts.
// Without a version npm picks the newest release whose "engines" the local
// Node satisfies, which on an older Node is not the newest release. Codex
// and Gemini CLI are pinned to the releases agents/codex.go and
// agents/gemini.go were written against. Gemini CLI runs a project's hooks
// only in a trusted folder: its runs set GEMINI_CLI_TRUST_WORKSPACE=true.
package e2e
