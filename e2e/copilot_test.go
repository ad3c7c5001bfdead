//go:build e2e

package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const (
	// copilotVersion is the GitHub Copilot CLI release the adapter
	// (agents/copilot.go) was written against;
	// HERMES_E2E_COPILOT_VERSION=latest tries another one.
	copilotVersion = "1.0.102"
	// copilotShellTool is Copilot's shell tool, a function taking
	// {"command", "description", …}.
	copilotShellTool = "bash"
)

// copilotShell asks bash for one command.
var copilotShell = chatShell{name: copilotShellTool, args: func(command string) map[string]any {
	return map[string]any{"command": command, "description": "e2e scripted command"}
}}

// copilotHarness is one Copilot CLI installation and one project wired to
// hermes-hooks, shared by the cases. The embedded harness holds the
// project, the homes and the hermes-hooks binary.
type copilotHarness struct {
	*harness
	chatAgent
	copilot  string // Copilot CLI (node_modules/.bin/copilot)
	pkgCache string // COPILOT_PKG_CACHE_HOME: where its binary unpacks itself
}

// TestCopilotCLI: `copilot -p` in a project whose
// .github/hooks/hermes-hooks.json, written by `hermes-hooks install copilot
// --project P`, runs `hermes-hooks hook copilot EVENT`, against a fake of
// the OpenAI Chat Completions API: Copilot's BYOK provider
// (COPILOT_PROVIDER_BASE_URL, which needs no GitHub login) with
// COPILOT_OFFLINE=1. Copilot runs a repository's hooks only in a trusted
// folder: the throwaway home's ~/.copilot/config.json trusts the project.
func TestCopilotCLI(t *testing.T) {
	start := time.Now()
	runScenarios(t, newCopilotHarness(t), start, nil)
}

// newCopilotHarness installs (or reuses) Copilot CLI, wires a new project
// to hermes-hooks and writes its Hermes hooks.
func newCopilotHarness(t *testing.T) *copilotHarness {
	t.Helper()
	h := &copilotHarness{chatAgent: chatAgent{copilotShell}}
	// The native binary unpacks its JavaScript (about 235 MB) under
	// $HOME/.cache on every start with a new home: keep one copy, beside
	// the npm cache, for --version and every run.
	if cache, err := os.UserCacheDir(); err == nil {
		h.pkgCache = filepath.Join(cache, "hermes-hooks-e2e", "copilot-pkg")
	} else {
		h.pkgCache = t.TempDir()
	}
	t.Setenv("COPILOT_PKG_CACHE_HOME", h.pkgCache)
	h.copilot = npmAgent(t, npmTool{
		what: "GitHub Copilot CLI", pkg: "@github/copilot", bin: "copilot",
		binEnv: "HERMES_E2E_COPILOT", versionEnv: "HERMES_E2E_COPILOT_VERSION",
		version: copilotVersion, slot: "copilot-npm",
	})
	h.harness = newHarness(t, "home/.copilot")
	trust, _ := json.Marshal(map[string]any{"trustedFolders": []string{h.project}})
	mustWrite(t, filepath.Join(h.home, ".copilot", "config.json"), string(trust)+"\n", 0o644)

	h.install(t, "copilot", filepath.Join(h.project, ".github", "hooks", "hermes-hooks.json"), "hook copilot", 800)
	// Copilot drops a command hook's output on UserPromptSubmit
	// (pre_llm_call); PostToolUse's additionalContext reaches the model.
	h.yaml = toolContextYAML
	h.writeHermesProject(t)
	return h
}

// spec: the guard is a Hermes hook on terminal, which bash is; the
// context hook is on post_tool_call too.
func (h *copilotHarness) spec() agentSpec {
	return agentSpec{name: "Copilot", tool: copilotShellTool, callID: scriptedCallID, result: "result", unit: "message", member: "messages", contextByTool: true}
}

// copilotEnv is Copilot's environment: the fake model as its BYOK
// provider, offline mode, a throwaway home, and every other connection
// sent to the fake's refusing proxy.
func (h *copilotHarness) copilotEnv(fake *fakeServer) []string {
	// Not the user's own Copilot setup and GitHub tokens.
	return h.agentEnv(cleanEnvWithout("COPILOT", "GH_", "GITHUB"), fake,
		"COPILOT_PKG_CACHE_HOME="+h.pkgCache,
		"COPILOT_OFFLINE=1",
		"COPILOT_AUTO_UPDATE=false",
		"COPILOT_PROVIDER_BASE_URL="+fake.URL()+"/v1",
		"COPILOT_PROVIDER_API_KEY=e2e-dummy-key",
		"COPILOT_MODEL=copilot-e2e",
	)
}

// run runs `copilot -p` in the project against fake, its tools allowed
// without asking (hermes-hooks is the guard).
func (h *copilotHarness) run(t *testing.T, fake *fakeServer) *agentRun {
	t.Helper()
	return h.runAgent(t, fake, invocation{
		who: "Copilot", what: "copilot -p", env: h.copilotEnv(fake), bin: h.copilot,
		args: []string{"-p", fake.script.Prompt, "--allow-all-tools", "--output-format", "json", "--log-dir", h.logs},
		dump: func(t *testing.T, r *agentRun) { h.dumpChat(t, "copilot -p", "JSON lines", r, fake, h.project) },
	})
}

// requireSuccess stops the test unless Copilot exited 0 and its last
// assistant message (of its JSON lines) is the fake model's final "done".
func (h *copilotHarness) requireSuccess(t *testing.T, r *agentRun) {
	t.Helper()
	if r.err != nil {
		t.Fatalf("copilot -p failed: %v", r.err)
	}
	last, found := "", false
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var ev struct {
			Type string `json:"type"`
			Data struct {
				Content string `json:"content"`
			} `json:"data"`
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Type == "assistant.message" {
			last, found = ev.Data.Content, true
		}
	}
	if !found || last != "done" {
		t.Fatalf("copilot -p's last assistant message is %q (found: %v); want the fake model's final %q", last, found, "done")
	}
}
