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

// qwenVersion is the Qwen Code release the adapter (agents/qwen.go) was
// written against; HERMES_E2E_QWEN_VERSION=latest tries another one.
const qwenVersion = "0.24.4"

// qwenHarness is one Qwen Code installation and one project wired to
// hermes-hooks, shared by the cases. The embedded harness holds the
// project, the homes and the hermes-hooks binary.
type qwenHarness struct {
	*harness
	qwen string // Qwen Code CLI (node_modules/.bin/qwen)
}

// TestQwenCode: `qwen -p` in a project whose .qwen/settings.json, written
// by `hermes-hooks install qwen --project P`, runs `hermes-hooks hook qwen`,
// against a fake of the OpenAI Chat Completions API (Qwen's "openai" auth
// type). Qwen Code has no trust step for a project's hooks by default.
func TestQwenCode(t *testing.T) {
	start := time.Now()
	h := &qwenHarness{harness: &harness{}}
	h.qwen = npmBinary(t, npmTool{
		what: "Qwen Code", pkg: "@qwen-code/qwen-code", bin: "qwen",
		binEnv: "HERMES_E2E_QWEN", versionEnv: "HERMES_E2E_QWEN_VERSION",
		version: qwenVersion, slot: "qwen-npm",
	})
	v, err := runVersion(h.qwen)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Qwen Code: %s (%s)", v, h.qwen)

	h.root = tempDir(t)
	h.project = filepath.Join(h.root, "project")
	h.home = filepath.Join(h.root, "home")
	h.hermesHome = filepath.Join(h.root, "hermes-home")
	h.logs = filepath.Join(h.root, "logs")
	for _, d := range []string{h.project, filepath.Join(h.home, ".qwen"), h.hermesHome, h.logs, filepath.Join(h.root, "bin")} {
		mustMkdir(t, d)
	}
	h.bin = buildHermesHooks(t, filepath.Join(h.root, "bin"))
	mustWrite(t, filepath.Join(h.project, visibleFile), "listed by ls\n", 0o644)
	// No usage statistics, no update check: nothing for Qwen to send
	// anywhere but the fake.
	mustWrite(t, filepath.Join(h.home, ".qwen", "settings.json"),
		`{"privacy": {"usageStatisticsEnabled": false}, "general": {"enableAutoUpdate": false}}`+"\n", 0o644)

	h.installQwen(t)
	h.writeHermesProject(t)

	t.Run("GuardBlocksRmRf", h.testGuardBlocks)
	t.Run("LsResultReachesModel", h.testLsRuns)
	t.Run("ContextReachesModel", h.testContext)
	t.Run("UnapprovedHookNeverRuns", h.testUnapproved)
	t.Logf("total %s, %d Qwen Code run(s)", time.Since(start).Round(time.Millisecond), h.runs)
}

// testGuardBlocks: the model asks run_shell_command for rm -rf on a
// directory of the project; the guard (a Hermes hook on terminal, which
// run_shell_command is) refuses, the directory survives and the model reads
// the guard's reason as the call's result.
func (h *qwenHarness) testGuardBlocks(t *testing.T) {
	marker := filepath.Join(h.project, "marker")
	mustMkdir(t, marker)
	mustWrite(t, filepath.Join(marker, "keep.txt"), "the guard must keep me\n", 0o644)
	// Safety: the only destructive command is on a path inside the test's
	// own temporary directory. If the guard failed, Qwen Code would run it.
	h.mustBeInside(t, marker)
	command := "rm -rf " + shellQuote(marker)

	fake := newFakeChat(t, script{Prompt: "E2E-PROMPT-guard: please delete the marker directory.", Command: command})
	h.runQwen(t, fake).requireSuccess(t)

	if _, err := os.Stat(filepath.Join(marker, "keep.txt")); err != nil {
		t.Errorf("the guard did not stop %q: %v", command, err)
	}
	got, ok := toolMessageOf(t, fake)
	if !ok {
		t.Fatalf("no request to the model carried the result of the %s call %s", qwenShellTool, chatCallID)
	}
	if !strings.Contains(got, guardReason) {
		t.Errorf("the %s call's result does not carry the guard's reason %q; the model read:\n%s", qwenShellTool, guardReason, got)
	} else {
		t.Logf("the model read: %s", got)
	}
	if !fileContains(t, filepath.Join(h.project, ".hermes", "guard.log"), "rm -rf") {
		t.Errorf("the guard never saw the rm -rf call (.hermes/guard.log)")
	}
}

// testLsRuns: a harmless command passes the guard and its output reaches
// the model.
func (h *qwenHarness) testLsRuns(t *testing.T) {
	fake := newFakeChat(t, script{Prompt: "E2E-PROMPT-ls: list the files here.", Command: "ls"})
	h.runQwen(t, fake).requireSuccess(t)

	got, ok := toolMessageOf(t, fake)
	if !ok {
		t.Fatalf("no request to the model carried the result of the %s call %s", qwenShellTool, chatCallID)
	}
	if !strings.Contains(got, visibleFile) || strings.Contains(got, guardReason) {
		t.Errorf("ls should have run and its output reached the model (listing %s); the model read:\n%s", visibleFile, got)
	}
}

// testContext: the pre_llm_call hook's context reaches the model through
// UserPromptSubmit's additionalContext.
func (h *qwenHarness) testContext(t *testing.T) {
	fake := newFakeChat(t, script{Prompt: "E2E-PROMPT-context: say done."})
	h.runQwen(t, fake).requireSuccess(t)

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
func (h *qwenHarness) testUnapproved(t *testing.T) {
	if h.runs == 0 { // run alone (go test -run): give it a session of its own
		fake := newFakeChat(t, script{Prompt: "E2E-PROMPT-unapproved: list the files here.", Command: "ls"})
		h.runQwen(t, fake).requireSuccess(t)
	}
	checkUnapprovedNeverRan(t, h.project)
}

// installQwen runs `hermes-hooks install qwen --project P`, which writes
// P/.qwen/settings.json.
func (h *qwenHarness) installQwen(t *testing.T) {
	t.Helper()
	out := h.hermesHooks(t, "install", "qwen", "--project", h.project)
	t.Logf("hermes-hooks install qwen --project: %s", strings.TrimSpace(out))
	settings := filepath.Join(h.project, ".qwen", "settings.json")
	data, err := os.ReadFile(settings)
	if err != nil {
		t.Fatalf("after install: %v", err)
	}
	if !strings.Contains(string(data), "hook qwen") {
		t.Fatalf("%s does not run hermes-hooks hook qwen:\n%s", settings, data)
	}
	t.Logf("%s:\n%s", settings, clip(string(data), 600))
}

// qwenEnv is Qwen Code's environment: the fake model as its OpenAI
// endpoint, a throwaway home, and every other connection sent to the
// fake's refusing proxy.
func (h *qwenHarness) qwenEnv(fake *fakeChat) []string {
	var env []string
	for _, kv := range cleanEnv() {
		name, _, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name)
		if strings.HasPrefix(upper, "QWEN") || strings.HasPrefix(upper, "DASHSCOPE") || strings.HasPrefix(upper, "GEMINI") {
			continue // the user's own Qwen setup
		}
		env = append(env, kv)
	}
	return append(env,
		"HOME="+h.home,
		"HERMES_HOME="+h.hermesHome,
		"OPENAI_BASE_URL="+fake.URL()+"/v1",
		"OPENAI_API_KEY=e2e-dummy-key",
		"OPENAI_MODEL=qwen-e2e",
		"QWEN_CODE_SUPPRESS_YOLO_WARNING=1",
		"QWEN_USAGE_STATISTICS_ENABLED=false",
		"HTTPS_PROXY="+fake.URL(),
		"HTTP_PROXY="+fake.URL(),
		"NO_PROXY=127.0.0.1,localhost",
	)
}

// qwenRun is one finished `qwen -p`.
type qwenRun struct {
	err            error
	stdout, stderr string
	elapsed        time.Duration
}

// runQwen runs `qwen -p` in the project against fake (yolo: Qwen's own
// approval prompts would stop a headless run; hermes-hooks is the guard),
// bounded by runTimeout, and dumps what helps when the calling test fails.
func (h *qwenHarness) runQwen(t *testing.T, fake *fakeChat) *qwenRun {
	t.Helper()
	h.runs++
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.qwen,
		"-p", fake.script.Prompt,
		"--yolo",
		"--auth-type", "openai",
		"-o", "json")
	cmd.Dir = h.project
	cmd.Env = h.qwenEnv(fake)
	// Its own process group, killed whole at the timeout: the shell
	// tool's children must not outlive the run.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res := &qwenRun{err: err, stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start)}
	if ctx.Err() != nil {
		res.err = fmt.Errorf("no answer within %s (killed): %v", runTimeout, err)
	}
	t.Logf("qwen -p ran %s (exit: %v); the fake API answered:", res.elapsed.Round(time.Millisecond), res.err)
	for _, r := range fake.Requests() {
		t.Logf("  %s %s → %s", r.Method, r.Path, r.chatSummary())
	}
	for _, e := range fake.Egress() {
		t.Logf("refused a connection Qwen Code tried to open: %s", e)
	}
	t.Cleanup(func() {
		if t.Failed() {
			h.dump(t, res, fake)
		}
	})
	return res
}

// requireSuccess stops the test unless Qwen Code exited 0 and its JSON
// output ends with a successful result of the fake model's final "done".
func (r *qwenRun) requireSuccess(t *testing.T) {
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

// dump logs what a failing case needs: Qwen Code's output, every request
// the fake model got and what it answered, and the hooks' payloads.
func (h *qwenHarness) dump(t *testing.T, r *qwenRun, fake *fakeChat) {
	t.Logf("qwen -p error: %v\nstdout (JSON events):\n%s\nstderr:\n%s", r.err, clip(r.stdout, 20000), clip(r.stderr, 8000))
	for i, req := range fake.Requests() {
		t.Logf("request %d: %s %s main=%v answer=%q\n  last messages: %s", i+1, req.Method, req.Path, req.Main, req.Answer, clip(string(lastOf(req.Body, "messages", 3)), 4000))
	}
	logHookPayloads(t, h.project)
}

// toolMessageOf is the result of the scripted shell call as the model
// received it (the tool message answering it), from the last
// main-conversation request carrying it.
func toolMessageOf(t *testing.T, fake *fakeChat) (string, bool) {
	t.Helper()
	found, ok := "", false
	for _, r := range fake.Requests() {
		if !r.Main {
			continue
		}
		var req chatRequest
		if err := json.Unmarshal(r.Body, &req); err != nil {
			t.Fatal(err)
		}
		if m := req.toolMessage(chatCallID); m != nil {
			found, ok = m.text(), true
		}
	}
	return found, ok
}
