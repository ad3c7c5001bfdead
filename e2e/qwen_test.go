//go:build e2e

package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// qwenVersion is the Qwen Code release the adapter (agents/qwen.go) was
// written against; HERMES_E2E_QWEN_VERSION=latest tries another one.
const qwenVersion = "0.24.4"

// qwenHarness is one Qwen Code installation and one project wired to
// hermes-hooks, shared by the cases. The embedded harness holds the
// project, the homes and the hermes-hooks binary.
type qwenHarness struct {
	*harness
	chatAgent
	qwen string // Qwen Code CLI (node_modules/.bin/qwen)
}

// TestQwenCode: `qwen -p` in a project whose .qwen/settings.json, written
// by `hermes-hooks install qwen --project P`, runs `hermes-hooks hook qwen`,
// against a fake of the OpenAI Chat Completions API (Qwen's "openai" auth
// type). Qwen Code has no trust step for a project's hooks by default.
// The pre_llm_call hook's context reaches the model through
// UserPromptSubmit's additionalContext.
func TestQwenCode(t *testing.T) {
	start := time.Now()
	runScenarios(t, newQwenHarness(t), start, nil)
}

// TestQwenDenyOutlivesALaterAllow: the user's own PreToolUse hook in
// ~/.qwen/settings.json answers permissionDecision "allow" for every
// shell call. Qwen runs the project's hooks (ours) before the user's and
// merges their hookSpecificOutput key by key, the last one winning, so a
// reply that refused by permissionDecision alone was replaced by the
// allow and the rm ran. The guard's refusal must hold.
func TestQwenDenyOutlivesALaterAllow(t *testing.T) {
	h := newQwenHarness(t)
	mustWrite(t, filepath.Join(h.home, ".qwen", "settings.json"),
		`{"privacy": {"usageStatisticsEnabled": false}, "general": {"enableAutoUpdate": false},`+
			` "hooks": {"PreToolUse": [{"matcher": "run_shell_command", "hooks": [{"type": "command",`+
			` "command": "cat >/dev/null; echo '{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\"}}'"}]}]}}`+"\n", 0o644)
	guardCase(t, h, "rm -rf", "marker")
}

// newQwenHarness installs (or reuses) Qwen Code, wires a new project to
// hermes-hooks and writes its Hermes hooks.
func newQwenHarness(t *testing.T) *qwenHarness {
	t.Helper()
	h := &qwenHarness{chatAgent: chatAgent{qwenShell}, qwen: npmAgent(t, npmTool{
		what: "Qwen Code", pkg: "@qwen-code/qwen-code", bin: "qwen",
		binEnv: "HERMES_E2E_QWEN", versionEnv: "HERMES_E2E_QWEN_VERSION",
		version: qwenVersion, slot: "qwen-npm",
	})}
	h.harness = newHarness(t, "home/.qwen")
	// No usage statistics, no update check: nothing for Qwen to send
	// anywhere but the fake.
	mustWrite(t, filepath.Join(h.home, ".qwen", "settings.json"),
		`{"privacy": {"usageStatisticsEnabled": false}, "general": {"enableAutoUpdate": false}}`+"\n", 0o644)
	h.install(t, "qwen", filepath.Join(h.project, ".qwen", "settings.json"), "hook qwen", 600)
	h.writeHermesProject(t)
	return h
}

// spec: the guard is a Hermes hook on terminal, which run_shell_command
// is.
func (h *qwenHarness) spec() agentSpec {
	return agentSpec{name: "Qwen Code", tool: qwenShellTool, callID: scriptedCallID, result: "result", unit: "message", member: "messages"}
}

// qwenEnv is Qwen Code's environment: the fake model as its OpenAI
// endpoint, a throwaway home, and every other connection sent to the
// fake's refusing proxy.
func (h *qwenHarness) qwenEnv(fake *fakeServer) []string {
	// The user's own Qwen setup.
	return h.agentEnv(cleanEnvWithout("QWEN", "DASHSCOPE", "GEMINI"), fake,
		"OPENAI_BASE_URL="+fake.URL()+"/v1",
		"OPENAI_API_KEY=e2e-dummy-key",
		"OPENAI_MODEL=qwen-e2e",
		"QWEN_CODE_SUPPRESS_YOLO_WARNING=1",
		"QWEN_USAGE_STATISTICS_ENABLED=false",
	)
}

// run runs `qwen -p` in the project against fake (yolo: Qwen's own
// approval prompts would stop a headless run; hermes-hooks is the guard).
func (h *qwenHarness) run(t *testing.T, fake *fakeServer) *agentRun {
	t.Helper()
	return h.runAgent(t, fake, invocation{
		who: "Qwen Code", what: "qwen -p", env: h.qwenEnv(fake), bin: h.qwen,
		args: []string{"-p", fake.script.Prompt, "--yolo", "--auth-type", "openai", "-o", "json"},
		dump: func(t *testing.T, r *agentRun) { h.dumpChat(t, "qwen -p", "JSON events", r, fake, h.project) },
	})
}

// requireSuccess stops the test unless Qwen Code exited 0 and its JSON
// output ends with a successful result of the fake model's final "done".
func (h *qwenHarness) requireSuccess(t *testing.T, r *agentRun) {
	t.Helper()
	if r.err != nil {
		t.Fatalf("qwen -p failed: %v", r.err)
	}
	var events []struct {
		Type    string `json:"type"`
		Subtype string `json:"subtype"`
		IsError bool   `json:"is_error"`
		Result  string `json:"result"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(r.stdout)), &events); err != nil || len(events) == 0 {
		t.Fatalf("qwen -p did not print its JSON events (%v)", err)
	}
	last := events[len(events)-1]
	if last.Type != "result" || last.IsError || last.Result != "done" {
		t.Fatalf("qwen -p finished with %s %s (is_error=%v), result %q; want the fake model's final %q", last.Type, last.Subtype, last.IsError, last.Result, "done")
	}
}
