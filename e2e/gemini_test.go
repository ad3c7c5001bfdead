//go:build e2e

package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const (
	// geminiVersion is the Gemini CLI release the adapter
	// (agents/gemini.go) was written against; HERMES_E2E_GEMINI_VERSION
	// tries another one.
	geminiVersion = "0.61.0"
	// geminiModel is passed with -m: the default "auto" model first sends
	// a routing request that expects a JSON verdict.
	geminiModel = "gemini-2.5-flash"
)

// geminiHarness is one Gemini CLI installation and one project wired to
// hermes-hooks, shared by the cases. The embedded harness holds the
// project, the homes and the hermes-hooks binary.
type geminiHarness struct {
	*harness
	gemini string // Gemini CLI (node_modules/.bin/gemini)
}

// TestGeminiCLI: `gemini -p` in a project whose .gemini/settings.json,
// written by `hermes-hooks install gemini --project P`, runs
// `hermes-hooks hook gemini`, against a fake of the Gemini API. The
// pre_llm_call hook's context reaches the model through BeforeAgent's
// hookSpecificOutput.additionalContext.
func TestGeminiCLI(t *testing.T) {
	start := time.Now()
	runScenarios(t, newGeminiHarness(t), start, nil)
}

// newGeminiHarness installs (or reuses) Gemini CLI, wires a new project
// to hermes-hooks (installGemini) and writes its Hermes hooks.
func newGeminiHarness(t *testing.T) *geminiHarness {
	t.Helper()
	h := &geminiHarness{gemini: npmAgent(t, npmTool{
		what: "Gemini CLI", pkg: "@google/gemini-cli", bin: "gemini",
		binEnv: "HERMES_E2E_GEMINI", versionEnv: "HERMES_E2E_GEMINI_VERSION",
		version: geminiVersion, slot: "gemini-npm",
	})}
	h.harness = newHarness(t, "home/.gemini")
	h.installGemini(t)
	h.writeHermesProject(t)
	return h
}

// spec: Gemini runs in --yolo, so nothing but the guard stops the rm -rf;
// the model reads a call's result as its functionResponse.
func (h *geminiHarness) spec() agentSpec {
	return agentSpec{name: "Gemini CLI", tool: geminiShellTool, result: "response", unit: "turn", member: "contents"}
}

func (h *geminiHarness) newFake(t *testing.T, s script) *fakeServer {
	return &newFakeGemini(t, s).fakeServer
}

// toolResult: the raw JSON response of the last functionResponse for
// the shell tool.
func (h *geminiHarness) toolResult(t *testing.T, fake *fakeServer) callResult {
	got := lastFound(t, fake, func(req *geminiRequest) *json.RawMessage {
		if resp := req.functionResponse(geminiShellTool); resp != nil {
			return &resp
		}
		return nil
	})
	if got == nil {
		return callResult{}
	}
	return callResult{found: true, text: string(*got)}
}

// installGemini runs `hermes-hooks install gemini --project P` (which
// writes P/.gemini/settings.json) and writes the user's Gemini settings:
// API-key auth (GOOGLE_GEMINI_BASE_URL alone selects the "gateway" auth
// type, which headless mode refuses), no usage statistics, no updater.
func (h *geminiHarness) installGemini(t *testing.T) {
	t.Helper()
	h.install(t, "gemini", filepath.Join(h.project, ".gemini", "settings.json"), "", 600)
	mustWrite(t, filepath.Join(h.home, ".gemini", "settings.json"), `{
  "security": {"auth": {"selectedType": "gemini-api-key"}},
  "privacy": {"usageStatisticsEnabled": false},
  "general": {"enableAutoUpdate": false, "enableAutoUpdateNotification": false}
}
`, 0o644)
}

// geminiEnv is Gemini CLI's environment: a throwaway HOME, the fake API
// with a dummy key, the project trusted for the run (else Gemini runs no
// project hook), and every other connection sent to the fake's refusing
// proxy.
func (h *geminiHarness) geminiEnv(fake *fakeServer) []string {
	return h.agentEnv(cleanEnv(), fake,
		"GOOGLE_GEMINI_BASE_URL="+fake.URL(),
		"GEMINI_API_KEY=e2e-dummy-key",
		"GEMINI_CLI_TRUST_WORKSPACE=true",
		"NO_COLOR=1",
	)
}

// run runs `gemini -p` (headless, --yolo: every tool call is allowed, so
// only a hook can stop one) in the project against fake.
func (h *geminiHarness) run(t *testing.T, fake *fakeServer) *agentRun {
	t.Helper()
	return h.runAgent(t, fake, invocation{
		who: "Gemini CLI", what: "gemini -p", env: h.geminiEnv(fake), bin: h.gemini,
		args: []string{"-p", fake.script.Prompt, "-m", geminiModel, "--yolo", "-o", "json"},
		dump: func(t *testing.T, r *agentRun) { h.dump(t, r, fake) },
	})
}

// requireSuccess stops the test unless Gemini CLI exited 0 with the fake
// model's final "done" as its JSON response.
func (h *geminiHarness) requireSuccess(t *testing.T, r *agentRun) {
	t.Helper()
	if r.err != nil {
		t.Fatalf("gemini -p failed: %v", r.err)
	}
	var out struct {
		Response string          `json:"response"`
		Error    json.RawMessage `json:"error"`
	}
	text := strings.TrimSpace(r.stdout)
	if i := strings.Index(text, "{"); i > 0 { // anything printed before the JSON
		text = text[i:]
	}
	if err := json.Unmarshal([]byte(text), &out); err != nil {
		t.Fatalf("gemini -p did not print its JSON result: %v", err)
	}
	if strings.TrimSpace(out.Response) != "done" {
		t.Fatalf("gemini -p's response is %q (error %s); want the fake model's final %q", out.Response, out.Error, "done")
	}
}

// dump logs what a failing case needs: Gemini CLI's output, every
// request the fake model got and what it answered, and the hooks'
// payloads.
func (h *geminiHarness) dump(t *testing.T, r *agentRun, fake *fakeServer) {
	t.Logf("gemini -p error: %v\nstdout:\n%s\nstderr:\n%s", r.err, clip(r.stdout, 8000), clip(r.stderr, 8000))
	dumpRequests(t, fake, "contents", "contents", 0)
	logHookPayloads(t, h.project)
}
