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
	cline string // Cline CLI (node_modules/.bin/cline)
	data  string // Cline's --data-dir
}

// TestCline: `cline --json PROMPT` in a project whose .clinerules/hooks/,
// written by `hermes-hooks install cline --project P`, holds one script
// per event running `hermes-hooks hook cline EVENT`, against a fake of the
// OpenAI Chat Completions API (Cline's "openai-compatible" provider).
func TestCline(t *testing.T) {
	start := time.Now()
	h := &clineHarness{harness: &harness{}}
	h.cline = npmBinary(t, npmTool{
		what: "Cline CLI", pkg: "cline", bin: "cline",
		binEnv: "HERMES_E2E_CLINE", versionEnv: "HERMES_E2E_CLINE_VERSION",
		version: clineVersion, slot: "cline-npm",
	})
	v, err := runVersion(h.cline)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Cline CLI: %s (%s)", v, h.cline)

	h.root = tempDir(t)
	h.project = filepath.Join(h.root, "project")
	h.home = filepath.Join(h.root, "home")
	h.hermesHome = filepath.Join(h.root, "hermes-home")
	h.logs = filepath.Join(h.root, "logs")
	h.data = filepath.Join(h.root, "cline-data")
	for _, d := range []string{h.project, h.home, h.hermesHome, h.logs, h.data, filepath.Join(h.root, "bin")} {
		mustMkdir(t, d)
	}
	h.bin = buildHermesHooks(t, filepath.Join(h.root, "bin"))
	mustWrite(t, filepath.Join(h.project, visibleFile), "listed by ls\n", 0o644)

	h.installCline(t)
	// cline 3 runs the UserPromptSubmit file (pre_llm_call) detached,
	// its reply unread, and for the prompt it starts with not at all; a
	// PostToolUse file's contextModification reaches the model.
	h.yaml = toolContextYAML
	h.writeHermesProject(t)

	t.Run("GuardBlocksRmRf", h.testGuardBlocks)
	t.Run("LsResultReachesModel", h.testLsRuns)
	t.Run("ContextReachesModel", h.testContext)
	t.Run("UnapprovedHookNeverRuns", h.testUnapproved)
	t.Logf("total %s, %d Cline run(s)", time.Since(start).Round(time.Millisecond), h.runs)
}

// testGuardBlocks: the model asks run_commands for rm -rf on a directory
// of the project; the guard (a Hermes hook on terminal, which run_commands
// is) refuses, and the directory survives. A hook file cannot refuse one
// call under cline 3: its cancel ends the run (the SDK's beforeTool hook
// answers stop, never skip), so the model gets no result for the call, and
// no further request, where other agents read the guard's reason.
func (h *clineHarness) testGuardBlocks(t *testing.T) {
	marker := filepath.Join(h.project, "marker")
	mustMkdir(t, marker)
	mustWrite(t, filepath.Join(marker, "keep.txt"), "the guard must keep me\n", 0o644)
	// Safety: the only destructive command is on a path inside the test's
	// own temporary directory. If the guard failed, Cline would run it.
	h.mustBeInside(t, marker)
	command := "rm -rf " + shellQuote(marker)

	fake := newFakeChatShell(t, script{Prompt: "E2E-PROMPT-guard: please delete the marker directory.", Command: command}, clineShell)
	h.runCline(t, fake).requireFinish(t, "aborted")

	if _, err := os.Stat(filepath.Join(marker, "keep.txt")); err != nil {
		t.Errorf("the guard did not stop %q: %v", command, err)
	}
	if got, ok := toolMessageOf(t, fake); ok {
		t.Errorf("the model read a result of the refused %s call, which a cancelled cline 3 run never sends:\n%s", clineShellTool, got)
	}
	// The reason stops the run: Cline logs it as the loop's
	// ControlledStopError.
	if !fileContains(t, filepath.Join(h.data, "logs", "cline.log"), guardReason) {
		t.Errorf("Cline's log does not give the guard's reason %q as what stopped the run", guardReason)
	}
	if !fileContains(t, filepath.Join(h.project, ".hermes", "guard.log"), "rm -rf") {
		t.Errorf("the guard never saw the rm -rf call (.hermes/guard.log)")
	}
}

// testLsRuns: a harmless command passes the guard and its output reaches
// the model.
func (h *clineHarness) testLsRuns(t *testing.T) {
	fake := newFakeChatShell(t, script{Prompt: "E2E-PROMPT-ls: list the files here.", Command: "ls"}, clineShell)
	h.runCline(t, fake).requireSuccess(t)

	got, ok := toolMessageOf(t, fake)
	if !ok {
		t.Fatalf("no request to the model carried the result of the %s call %s", clineShellTool, chatCallID)
	}
	if !strings.Contains(got, visibleFile) || strings.Contains(got, guardReason) {
		t.Errorf("ls should have run and its output reached the model (listing %s); the model read:\n%s", visibleFile, got)
	}
}

// testContext: the context hook's context, on post_tool_call, reaches the
// model through PostToolUse's contextModification.
func (h *clineHarness) testContext(t *testing.T) {
	fake := newFakeChatShell(t, script{Prompt: "E2E-PROMPT-context: list the files here.", Command: "ls"}, clineShell)
	h.runCline(t, fake).requireSuccess(t)

	for _, r := range fake.Requests() {
		if r.Main && bytes.Contains(memberOf(r.Body, "messages"), []byte(contextMarker)) {
			return
		}
	}
	t.Errorf("no message of the main conversation carries the context hook's %q", contextMarker)
}

// testUnapproved: the hook nobody approved is configured on pre_tool_call,
// pre_llm_call and post_tool_call, next to approved hooks that did run
// during the same sessions, yet never ran.
func (h *clineHarness) testUnapproved(t *testing.T) {
	if h.runs == 0 { // run alone (go test -run): give it a session of its own
		fake := newFakeChatShell(t, script{Prompt: "E2E-PROMPT-unapproved: list the files here.", Command: "ls"}, clineShell)
		h.runCline(t, fake).requireSuccess(t)
	}
	checkUnapprovedNeverRan(t, h.project)
}

// installCline runs `hermes-hooks install cline --project P`, which writes
// one script per event into P/.clinerules/hooks/.
func (h *clineHarness) installCline(t *testing.T) {
	t.Helper()
	out := h.hermesHooks(t, "install", "cline", "--project", h.project)
	t.Logf("hermes-hooks install cline --project: %s", strings.TrimSpace(out))
	hook := filepath.Join(h.project, ".clinerules", "hooks", "PreToolUse")
	data, err := os.ReadFile(hook)
	if err != nil {
		t.Fatalf("after install: %v", err)
	}
	if !strings.Contains(string(data), "hook cline PreToolUse") {
		t.Fatalf("%s does not run hermes-hooks hook cline PreToolUse:\n%s", hook, data)
	}
	t.Logf("%s:\n%s", hook, data)
}

// clineEnv is Cline's environment: a throwaway home, and every connection
// but the fake model's sent to the fake's refusing proxy.
func (h *clineHarness) clineEnv(fake *fakeChat) []string {
	var env []string
	for _, kv := range cleanEnv() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(strings.ToUpper(name), "CLINE") {
			continue // the user's own Cline setup
		}
		env = append(env, kv)
	}
	return append(env,
		"HOME="+h.home,
		"HERMES_HOME="+h.hermesHome,
		"HTTPS_PROXY="+fake.URL(),
		"HTTP_PROXY="+fake.URL(),
		"NO_PROXY=127.0.0.1,localhost",
	)
}

// clineRun is one finished `cline --json`.
type clineRun struct {
	err            error
	stdout, stderr string
	elapsed        time.Duration
}

// runCline points Cline's openai-compatible provider at fake (`cline
// auth`), then runs `cline --json PROMPT` in the project (auto-approve is
// the default headless: hermes-hooks is the guard), bounded by runTimeout,
// and dumps what helps when the calling test fails. --data-dir keeps
// Cline's state in the test's directory and runs it without its hub
// daemon, which a plain run starts detached for later runs.
func (h *clineHarness) runCline(t *testing.T, fake *fakeChat) *clineRun {
	t.Helper()
	h.runs++
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	auth := h.clineCmd(ctx, fake, "auth", "openai-compatible", "-k", "e2e-dummy-key", "-m", "cline-e2e",
		"-b", fake.URL()+"/v1", "--data-dir", h.data)
	if out, err := auth.CombinedOutput(); err != nil {
		t.Fatalf("cline auth openai-compatible: %v\n%s", err, out)
	}
	cmd := h.clineCmd(ctx, fake, "--json", "--data-dir", h.data, "-c", h.project, fake.script.Prompt)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res := &clineRun{err: err, stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start)}
	if ctx.Err() != nil {
		res.err = fmt.Errorf("no answer within %s (killed): %v", runTimeout, err)
	}
	t.Logf("cline --json ran %s (exit: %v); the fake API answered:", res.elapsed.Round(time.Millisecond), res.err)
	for _, r := range fake.Requests() {
		t.Logf("  %s %s → %s", r.Method, r.Path, r.chatSummary())
	}
	for _, e := range fake.Egress() {
		t.Logf("refused a connection Cline tried to open: %s", e)
	}
	t.Cleanup(func() {
		if t.Failed() {
			h.dump(t, res, fake)
		}
	})
	return res
}

// clineCmd is one cline command in the project, in its own process group
// killed whole at runTimeout: the shell tool's children must not outlive
// the run.
func (h *clineHarness) clineCmd(ctx context.Context, fake *fakeChat, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, h.cline, args...)
	cmd.Dir = h.project
	cmd.Env = h.clineEnv(fake)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	return cmd
}

// requireSuccess stops the test unless Cline exited 0 and its JSON lines
// hold a completed run whose text is the fake model's final "done".
func (r *clineRun) requireSuccess(t *testing.T) {
	t.Helper()
	if res := r.requireFinish(t, "completed"); res.Text != "done" {
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
func (r *clineRun) requireFinish(t *testing.T, reason string) clineResult {
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
// fake model got and what it answered, and the hooks' payloads.
func (h *clineHarness) dump(t *testing.T, r *clineRun, fake *fakeChat) {
	t.Logf("cline error: %v\nstdout (JSON lines):\n%s\nstderr:\n%s", r.err, clip(r.stdout, 20000), clip(r.stderr, 8000))
	for i, req := range fake.Requests() {
		t.Logf("request %d: %s %s main=%v answer=%q\n  last messages: %s", i+1, req.Method, req.Path, req.Main, req.Answer, clip(string(lastOf(req.Body, "messages", 3)), 4000))
	}
	logHookPayloads(t, h.project)
	if data, err := os.ReadFile(filepath.Join(h.data, "logs", "cline.log")); err == nil {
		t.Logf("Cline's log (%s):\n%s", filepath.Join(h.data, "logs", "cline.log"), clip(string(data), 12000))
	}
}
