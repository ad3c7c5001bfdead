//go:build e2e

package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const (
	// clineVersion is the Cline CLI release this test drives (the SDK-based
	// cline 3; agents/cline.go also covers 2.x's payload names);
	// HERMES_E2E_CLINE_VERSION=latest tries another one.
	clineVersion = "3.0.65"
	// clineShellTool is cline 3's shell tool, a function taking
	// {"commands": [...]}.
	clineShellTool = "run_commands"
)

// clineShell asks run_commands for one command.
var clineShell = chatShell{name: clineShellTool, args: func(command string) map[string]any {
	return map[string]any{"commands": []string{command}}
}}

// clineHarness is one Cline CLI installation and one project wired to
// hermes-hooks, shared by the cases. The embedded harness holds the
// project, the homes and the hermes-hooks binary.
type clineHarness struct {
	*harness
	chatAgent
	cline string // Cline CLI (node_modules/.bin/cline)
	data  string // Cline's --data-dir
}

// TestCline: `cline --json PROMPT` in a project whose .clinerules/hooks/,
// written by `hermes-hooks install cline --project P`, holds one script
// per event running `hermes-hooks hook cline EVENT`, against a fake of the
// OpenAI Chat Completions API (Cline's "openai-compatible" provider).
func TestCline(t *testing.T) {
	start := time.Now()
	h := &clineHarness{chatAgent: chatAgent{clineShell}, cline: npmAgent(t, npmTool{
		what: "Cline CLI", pkg: "cline", bin: "cline",
		binEnv: "HERMES_E2E_CLINE", versionEnv: "HERMES_E2E_CLINE_VERSION",
		version: clineVersion, slot: "cline-npm",
	})}
	h.harness = newHarness(t, "cline-data")
	h.data = filepath.Join(h.root, "cline-data")

	h.install(t, "cline", filepath.Join(h.project, ".clinerules", "hooks", "PreToolUse"), "hook cline PreToolUse", 1<<20)
	// cline 3 runs the UserPromptSubmit file (pre_llm_call) detached,
	// its reply unread, and for the prompt it starts with not at all; a
	// PostToolUse file's contextModification reaches the model.
	h.yaml = toolContextYAML
	h.writeHermesProject(t)
	runScenarios(t, h, start, h.testGuardBlocks)
}

// spec: the guard is a Hermes hook on terminal, which run_commands is;
// the context hook is on post_tool_call too.
func (h *clineHarness) spec() agentSpec {
	return agentSpec{name: "Cline", tool: clineShellTool, callID: scriptedCallID, result: "result", unit: "message", member: "messages", contextByTool: true}
}

// testGuardBlocks replaces the shared guard case: the model asks
// run_commands for rm -rf on a directory of the project; the guard
// refuses, and the directory survives. A hook file cannot refuse one call
// under cline 3: its cancel ends the run (the SDK's beforeTool hook
// answers stop, never skip), so the model gets no result for the call,
// and no further request, where other agents read the guard's reason.
func (h *clineHarness) testGuardBlocks(t *testing.T) {
	marker, command := h.guardTarget(t, "rm -rf", "marker")
	fake := h.newFake(t, guardPrompt("marker", command))
	h.requireFinish(t, h.run(t, fake), "aborted")

	checkKept(t, marker, command)
	if got := h.toolResult(t, fake); got.found {
		t.Errorf("the model read a result of the refused %s call, which a cancelled cline 3 run never sends:\n%s", clineShellTool, got.text)
	}
	// The reason stops the run: Cline logs it as the loop's
	// ControlledStopError.
	if !fileContains(t, filepath.Join(h.data, "logs", "cline.log"), guardReason) {
		t.Errorf("Cline's log does not give the guard's reason %q as what stopped the run", guardReason)
	}
	h.checkGuardSaw(t, "rm -rf", "rm -rf")
}

// clineEnv is Cline's environment: a throwaway home, and every connection
// but the fake model's sent to the fake's refusing proxy.
func (h *clineHarness) clineEnv(fake *fakeServer) []string {
	return h.agentEnv(cleanEnvWithout("CLINE"), fake) // not the user's own Cline setup
}

// run points Cline's openai-compatible provider at fake (`cline auth`),
// then runs `cline --json PROMPT` in the project (auto-approve is the
// default headless: hermes-hooks is the guard). --data-dir keeps Cline's
// state in the test's directory and runs it without its hub daemon, which
// a plain run starts detached for later runs.
func (h *clineHarness) run(t *testing.T, fake *fakeServer) *agentRun {
	t.Helper()
	return h.runAgent(t, fake, invocation{
		who: "Cline", what: "cline --json", env: h.clineEnv(fake), bin: h.cline,
		args: []string{"--json", "--data-dir", h.data, "-c", h.project, fake.script.Prompt},
		prepare: func(ctx context.Context) {
			auth := h.agentCmd(ctx, h.clineEnv(fake), h.cline, "auth", "openai-compatible", "-k", "e2e-dummy-key", "-m", "cline-e2e",
				"-b", fake.URL()+"/v1", "--data-dir", h.data)
			if out, err := auth.CombinedOutput(); err != nil {
				t.Fatalf("cline auth openai-compatible: %v\n%s", err, out)
			}
		},
		dump: func(t *testing.T, r *agentRun) { h.dump(t, r, fake) },
	})
}

// requireSuccess stops the test unless Cline exited 0 and its JSON lines
// hold a completed run whose text is the fake model's final "done".
func (h *clineHarness) requireSuccess(t *testing.T, r *agentRun) {
	t.Helper()
	if res := h.requireFinish(t, r, "completed"); res.Text != "done" {
		t.Fatalf("cline --json's run_result has text %q; want the fake model's final %q", res.Text, "done")
	}
}

// clineResult is the run_result line of `cline --json`.
type clineResult struct {
	Type         string `json:"type"`
	FinishReason string `json:"finishReason"`
	Text         string `json:"text"`
}

// requireFinish stops the test unless Cline exited 0 and its JSON lines
// hold a run_result with finishReason reason.
func (h *clineHarness) requireFinish(t *testing.T, r *agentRun, reason string) clineResult {
	t.Helper()
	if r.err != nil {
		t.Fatalf("cline --json failed: %v", r.err)
	}
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var res clineResult
		if json.Unmarshal([]byte(line), &res) != nil || res.Type != "run_result" {
			continue
		}
		if res.FinishReason != reason {
			t.Fatalf("cline --json's run finished %q; want %q", res.FinishReason, reason)
		}
		return res
	}
	t.Fatalf("cline --json printed no run_result line")
	return clineResult{}
}

// dump logs what a failing case needs: Cline's output, every request the
// fake model got and what it answered, the hooks' payloads and Cline's
// log.
func (h *clineHarness) dump(t *testing.T, r *agentRun, fake *fakeServer) {
	h.dumpChat(t, "cline", "JSON lines", r, fake, h.project)
	if data, err := os.ReadFile(filepath.Join(h.data, "logs", "cline.log")); err == nil {
		t.Logf("Cline's log (%s):\n%s", filepath.Join(h.data, "logs", "cline.log"), clip(string(data), 12000))
	}
}
