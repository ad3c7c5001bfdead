//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
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

func TestGeminiCLI(t *testing.T) {
	start := time.Now()
	h := &geminiHarness{harness: &harness{}}
	h.gemini = npmBinary(t, npmTool{
		what: "Gemini CLI", pkg: "@google/gemini-cli", bin: "gemini",
		binEnv: "HERMES_E2E_GEMINI", versionEnv: "HERMES_E2E_GEMINI_VERSION",
		version: geminiVersion, slot: "gemini-npm",
	})
	v, err := runVersion(h.gemini)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Gemini CLI: %s (%s)", v, h.gemini)

	h.root = tempDir(t)
	h.project = filepath.Join(h.root, "project")
	h.home = filepath.Join(h.root, "home")
	h.hermesHome = filepath.Join(h.root, "hermes-home")
	h.logs = filepath.Join(h.root, "logs")
	for _, d := range []string{h.project, filepath.Join(h.home, ".gemini"), h.hermesHome, h.logs, filepath.Join(h.root, "bin")} {
		mustMkdir(t, d)
	}
	h.bin = buildHermesHooks(t, filepath.Join(h.root, "bin"))
	mustWrite(t, filepath.Join(h.project, visibleFile), "listed by ls\n", 0o644)

	h.installGemini(t)
	h.writeHermesProject(t)

	t.Run("GuardBlocksRmRf", h.testGuardBlocks)
	t.Run("LsResultReachesModel", h.testLsRuns)
	t.Run("ContextReachesModel", h.testContext)
	t.Run("UnapprovedHookNeverRuns", h.testUnapproved)
	t.Logf("total %s, %d Gemini CLI run(s)", time.Since(start).Round(time.Millisecond), h.runs)
}

// testGuardBlocks: the model asks run_shell_command for rm -rf on a
// directory of the project; the guard refuses, the directory survives
// (Gemini runs in --yolo: nothing else would stop it) and the model reads
// the guard's reason as the call's response.
func (h *geminiHarness) testGuardBlocks(t *testing.T) {
	marker := filepath.Join(h.project, "marker")
	mustMkdir(t, marker)
	mustWrite(t, filepath.Join(marker, "keep.txt"), "the guard must keep me\n", 0o644)
	// Safety: the only destructive command is on a path inside the test's
	// own temporary directory. If the guard failed, Gemini CLI would run it.
	h.mustBeInside(t, marker)
	command := "rm -rf " + shellQuote(marker)

	fake := newFakeGemini(t, script{Prompt: "E2E-PROMPT-guard: please delete the marker directory.", Command: command})
	h.runGemini(t, fake).requireSuccess(t)

	if _, err := os.Stat(filepath.Join(marker, "keep.txt")); err != nil {
		t.Errorf("the guard did not stop %q: %v", command, err)
	}
	got := functionResponseOf(t, fake)
	if got == "" {
		t.Fatalf("no request to the model carried the response of the %s call", geminiShellTool)
	}
	if !strings.Contains(got, guardReason) {
		t.Errorf("the %s call's response does not carry the guard's reason %q; the model read:\n%s", geminiShellTool, guardReason, got)
	} else {
		t.Logf("the model read: %s", got)
	}
	if !fileContains(t, filepath.Join(h.project, ".hermes", "guard.log"), "rm -rf") {
		t.Errorf("the guard never saw the rm -rf call (.hermes/guard.log)")
	}
}

// testLsRuns: a harmless command passes the guard and its output reaches
// the model.
func (h *geminiHarness) testLsRuns(t *testing.T) {
	fake := newFakeGemini(t, script{Prompt: "E2E-PROMPT-ls: list the files here.", Command: "ls"})
	h.runGemini(t, fake).requireSuccess(t)

	got := functionResponseOf(t, fake)
	if got == "" {
		t.Fatalf("no request to the model carried the response of the %s call", geminiShellTool)
	}
	if !strings.Contains(got, visibleFile) || strings.Contains(got, guardReason) {
		t.Errorf("ls should have run and its output reached the model (listing %s); the model read:\n%s", visibleFile, got)
	}
}

// testContext: the pre_llm_call hook's context reaches the model through
// BeforeAgent's hookSpecificOutput.additionalContext.
func (h *geminiHarness) testContext(t *testing.T) {
	fake := newFakeGemini(t, script{Prompt: "E2E-PROMPT-context: say done."})
	h.runGemini(t, fake).requireSuccess(t)

	for _, r := range fake.Requests() {
		if r.Main && bytes.Contains(memberOf(r.Body, "contents"), []byte(contextMarker)) {
			return
		}
	}
	t.Errorf("no turn of the main conversation carries the context hook's %q", contextMarker)
}

// testUnapproved: the hook nobody approved is configured on pre_tool_call,
// pre_llm_call and post_tool_call, next to approved hooks that did run
// during the same sessions, yet never ran.
func (h *geminiHarness) testUnapproved(t *testing.T) {
	if h.runs == 0 { // run alone (go test -run): give it a session of its own
		fake := newFakeGemini(t, script{Prompt: "E2E-PROMPT-unapproved: list the files here.", Command: "ls"})
		h.runGemini(t, fake).requireSuccess(t)
	}
	checkUnapprovedNeverRan(t, h.project)
}

// installGemini runs `hermes-hooks install gemini --project P` (which
// writes P/.gemini/settings.json) and writes the user's Gemini settings:
// API-key auth (GOOGLE_GEMINI_BASE_URL alone selects the "gateway" auth
// type, which headless mode refuses), no usage statistics, no updater.
func (h *geminiHarness) installGemini(t *testing.T) {
	t.Helper()
	out := h.hermesHooks(t, "install", "gemini", "--project", h.project)
	t.Logf("hermes-hooks install gemini --project: %s", strings.TrimSpace(out))
	data, err := os.ReadFile(filepath.Join(h.project, ".gemini", "settings.json"))
	if err != nil {
		t.Fatalf("after install: %v", err)
	}
	t.Logf("%s:\n%s", filepath.Join(h.project, ".gemini", "settings.json"), clip(string(data), 600))
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
func (h *geminiHarness) geminiEnv(fake *fakeGemini) []string {
	return append(cleanEnv(),
		"HOME="+h.home,
		"HERMES_HOME="+h.hermesHome,
		"GOOGLE_GEMINI_BASE_URL="+fake.URL(),
		"GEMINI_API_KEY=e2e-dummy-key",
		"GEMINI_CLI_TRUST_WORKSPACE=true",
		"HTTPS_PROXY="+fake.URL(),
		"HTTP_PROXY="+fake.URL(),
		"NO_PROXY=127.0.0.1,localhost",
		"NO_COLOR=1",
	)
}

// geminiRun is one finished `gemini -p`.
type geminiRun struct {
	err            error
	stdout, stderr string
	elapsed        time.Duration
}

// runGemini runs `gemini -p` (headless, --yolo: every tool call is
// allowed, so only a hook can stop one) in the project against fake,
// bounded by runTimeout, and dumps what helps when the calling test fails.
func (h *geminiHarness) runGemini(t *testing.T, fake *fakeGemini) *geminiRun {
	t.Helper()
	h.runs++
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.gemini,
		"-p", fake.script.Prompt,
		"-m", geminiModel,
		"--yolo",
		"-o", "json")
	cmd.Dir = h.project
	cmd.Env = h.geminiEnv(fake)
	// Its own process group, killed whole at the timeout: the shell
	// tool's children must not outlive the run.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res := &geminiRun{err: err, stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start)}
	if ctx.Err() != nil {
		res.err = fmt.Errorf("no answer within %s (killed): %v", runTimeout, err)
	}
	t.Logf("gemini -p ran %s (exit: %v); the fake API answered:", res.elapsed.Round(time.Millisecond), res.err)
	for _, r := range fake.Requests() {
		t.Logf("  %s %s → %s", r.Method, r.Path, r.geminiSummary())
	}
	for _, e := range fake.Egress() {
		t.Logf("refused a connection Gemini CLI tried to open: %s", e)
	}
	t.Cleanup(func() {
		if t.Failed() {
			h.dump(t, res, fake)
		}
	})
	return res
}

// requireSuccess stops the test unless Gemini CLI exited 0 with the fake
// model's final "done" as its JSON response.
func (r *geminiRun) requireSuccess(t *testing.T) {
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
func (h *geminiHarness) dump(t *testing.T, r *geminiRun, fake *fakeGemini) {
	t.Logf("gemini -p error: %v\nstdout:\n%s\nstderr:\n%s", r.err, clip(r.stdout, 8000), clip(r.stderr, 8000))
	for i, req := range fake.Requests() {
		t.Logf("request %d: %s %s main=%v answer=%q\n  contents: %s", i+1, req.Method, req.Path, req.Main, req.Answer, clip(string(memberOf(req.Body, "contents")), 4000))
	}
	logHookPayloads(t, h.project)
}

// functionResponseOf is the response of the scripted shell call as the
// model received it (raw JSON), from the last main-conversation request
// carrying it; "" when none did.
func functionResponseOf(t *testing.T, fake *fakeGemini) string {
	t.Helper()
	found := ""
	for _, r := range fake.Requests() {
		if !r.Main {
			continue
		}
		var req geminiRequest
		if err := json.Unmarshal(r.Body, &req); err != nil {
			t.Fatal(err)
		}
		if resp := req.functionResponse(geminiShellTool); resp != nil {
			found = string(resp)
		}
	}
	return found
}
