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
	h := &copilotHarness{harness: &harness{}}
	// The native binary unpacks its JavaScript (about 235 MB) under
	// $HOME/.cache on every start with a new home: keep one copy, beside
	// the npm cache, for --version and every run.
	if cache, err := os.UserCacheDir(); err == nil {
		h.pkgCache = filepath.Join(cache, "hermes-hooks-e2e", "copilot-pkg")
	} else {
		h.pkgCache = t.TempDir()
	}
	t.Setenv("COPILOT_PKG_CACHE_HOME", h.pkgCache)
	h.copilot = npmBinary(t, npmTool{
		what: "GitHub Copilot CLI", pkg: "@github/copilot", bin: "copilot",
		binEnv: "HERMES_E2E_COPILOT", versionEnv: "HERMES_E2E_COPILOT_VERSION",
		version: copilotVersion, slot: "copilot-npm",
	})
	v, err := runVersion(h.copilot)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("GitHub Copilot CLI: %s (%s)", strings.SplitN(v, "\n", 2)[0], h.copilot)

	h.root = tempDir(t)
	h.project = filepath.Join(h.root, "project")
	h.home = filepath.Join(h.root, "home")
	h.hermesHome = filepath.Join(h.root, "hermes-home")
	h.logs = filepath.Join(h.root, "logs")
	for _, d := range []string{h.project, filepath.Join(h.home, ".copilot"), h.hermesHome, h.logs, filepath.Join(h.root, "bin")} {
		mustMkdir(t, d)
	}
	h.bin = buildHermesHooks(t, filepath.Join(h.root, "bin"))
	mustWrite(t, filepath.Join(h.project, visibleFile), "listed by ls\n", 0o644)
	trust, _ := json.Marshal(map[string]any{"trustedFolders": []string{h.project}})
	mustWrite(t, filepath.Join(h.home, ".copilot", "config.json"), string(trust)+"\n", 0o644)

	h.installCopilot(t)
	// Copilot drops a command hook's output on UserPromptSubmit
	// (pre_llm_call); PostToolUse's additionalContext reaches the model.
	h.yaml = toolContextYAML
	h.writeHermesProject(t)

	t.Run("GuardBlocksRmRf", h.testGuardBlocks)
	t.Run("LsResultReachesModel", h.testLsRuns)
	t.Run("ContextReachesModel", h.testContext)
	t.Run("UnapprovedHookNeverRuns", h.testUnapproved)
	t.Logf("total %s, %d Copilot run(s)", time.Since(start).Round(time.Millisecond), h.runs)
}

// testGuardBlocks: the model asks bash for rm -rf on a directory of the
// project; the guard (a Hermes hook on terminal, which bash is) refuses,
// the directory survives and the model reads the guard's reason as the
// call's result.
func (h *copilotHarness) testGuardBlocks(t *testing.T) {
	marker := filepath.Join(h.project, "marker")
	mustMkdir(t, marker)
	mustWrite(t, filepath.Join(marker, "keep.txt"), "the guard must keep me\n", 0o644)
	// Safety: the only destructive command is on a path inside the test's
	// own temporary directory. If the guard failed, Copilot would run it.
	h.mustBeInside(t, marker)
	command := "rm -rf " + shellQuote(marker)

	fake := newFakeChatShell(t, script{Prompt: "E2E-PROMPT-guard: please delete the marker directory.", Command: command}, copilotShell)
	h.runCopilot(t, fake).requireSuccess(t)

	if _, err := os.Stat(filepath.Join(marker, "keep.txt")); err != nil {
		t.Errorf("the guard did not stop %q: %v", command, err)
	}
	got, ok := toolMessageOf(t, fake)
	if !ok {
		t.Fatalf("no request to the model carried the result of the %s call %s", copilotShellTool, chatCallID)
	}
	if !strings.Contains(got, guardReason) {
		t.Errorf("the %s call's result does not carry the guard's reason %q; the model read:\n%s", copilotShellTool, guardReason, got)
	} else {
		t.Logf("the model read: %s", got)
	}
	if !fileContains(t, filepath.Join(h.project, ".hermes", "guard.log"), "rm -rf") {
		t.Errorf("the guard never saw the rm -rf call (.hermes/guard.log)")
	}
}

// testLsRuns: a harmless command passes the guard and its output reaches
// the model.
func (h *copilotHarness) testLsRuns(t *testing.T) {
	fake := newFakeChatShell(t, script{Prompt: "E2E-PROMPT-ls: list the files here.", Command: "ls"}, copilotShell)
	h.runCopilot(t, fake).requireSuccess(t)

	got, ok := toolMessageOf(t, fake)
	if !ok {
		t.Fatalf("no request to the model carried the result of the %s call %s", copilotShellTool, chatCallID)
	}
	if !strings.Contains(got, visibleFile) || strings.Contains(got, guardReason) {
		t.Errorf("ls should have run and its output reached the model (listing %s); the model read:\n%s", visibleFile, got)
	}
}

// testContext: the context hook's context, on post_tool_call, reaches the
// model through PostToolUse's additionalContext.
func (h *copilotHarness) testContext(t *testing.T) {
	fake := newFakeChatShell(t, script{Prompt: "E2E-PROMPT-context: list the files here.", Command: "ls"}, copilotShell)
	h.runCopilot(t, fake).requireSuccess(t)

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
func (h *copilotHarness) testUnapproved(t *testing.T) {
	if h.runs == 0 { // run alone (go test -run): give it a session of its own
		fake := newFakeChatShell(t, script{Prompt: "E2E-PROMPT-unapproved: list the files here.", Command: "ls"}, copilotShell)
		h.runCopilot(t, fake).requireSuccess(t)
	}
	checkUnapprovedNeverRan(t, h.project)
}

// installCopilot runs `hermes-hooks install copilot --project P`, which
// writes P/.github/hooks/hermes-hooks.json.
func (h *copilotHarness) installCopilot(t *testing.T) {
	t.Helper()
	out := h.hermesHooks(t, "install", "copilot", "--project", h.project)
	t.Logf("hermes-hooks install copilot --project: %s", strings.TrimSpace(out))
	file := filepath.Join(h.project, ".github", "hooks", "hermes-hooks.json")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("after install: %v", err)
	}
	if !strings.Contains(string(data), "hook copilot") {
		t.Fatalf("%s does not run hermes-hooks hook copilot:\n%s", file, data)
	}
	t.Logf("%s:\n%s", file, clip(string(data), 800))
}

// copilotEnv is Copilot's environment: the fake model as its BYOK
// provider, offline mode, a throwaway home, and every other connection
// sent to the fake's refusing proxy.
func (h *copilotHarness) copilotEnv(fake *fakeChat) []string {
	var env []string
	for _, kv := range cleanEnv() {
		name, _, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name)
		if strings.HasPrefix(upper, "COPILOT") || strings.HasPrefix(upper, "GH_") || strings.HasPrefix(upper, "GITHUB") {
			continue // the user's own Copilot setup and GitHub tokens
		}
		env = append(env, kv)
	}
	return append(env,
		"HOME="+h.home,
		"HERMES_HOME="+h.hermesHome,
		"COPILOT_PKG_CACHE_HOME="+h.pkgCache,
		"COPILOT_OFFLINE=1",
		"COPILOT_AUTO_UPDATE=false",
		"COPILOT_PROVIDER_BASE_URL="+fake.URL()+"/v1",
		"COPILOT_PROVIDER_API_KEY=e2e-dummy-key",
		"COPILOT_MODEL=copilot-e2e",
		"HTTPS_PROXY="+fake.URL(),
		"HTTP_PROXY="+fake.URL(),
		"NO_PROXY=127.0.0.1,localhost",
	)
}

// copilotRun is one finished `copilot -p`.
type copilotRun struct {
	err            error
	stdout, stderr string
	elapsed        time.Duration
}

// runCopilot runs `copilot -p` in the project against fake, its tools
// allowed without asking (hermes-hooks is the guard), bounded by
// runTimeout, and dumps what helps when the calling test fails.
func (h *copilotHarness) runCopilot(t *testing.T, fake *fakeChat) *copilotRun {
	t.Helper()
	h.runs++
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.copilot, "-p", fake.script.Prompt, "--allow-all-tools", "--output-format", "json",
		"--log-dir", h.logs)
	cmd.Dir = h.project
	cmd.Env = h.copilotEnv(fake)
	// Its own process group, killed whole at the timeout: the shell
	// tool's children must not outlive the run.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res := &copilotRun{err: err, stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start)}
	if ctx.Err() != nil {
		res.err = fmt.Errorf("no answer within %s (killed): %v", runTimeout, err)
	}
	t.Logf("copilot -p ran %s (exit: %v); the fake API answered:", res.elapsed.Round(time.Millisecond), res.err)
	for _, r := range fake.Requests() {
		t.Logf("  %s %s → %s", r.Method, r.Path, r.chatSummary())
	}
	for _, e := range fake.Egress() {
		t.Logf("refused a connection Copilot tried to open: %s", e)
	}
	t.Cleanup(func() {
		if t.Failed() {
			h.dump(t, res, fake)
		}
	})
	return res
}

// requireSuccess stops the test unless Copilot exited 0 and its last
// assistant message (of its JSON lines) is the fake model's final "done".
func (r *copilotRun) requireSuccess(t *testing.T) {
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

// dump logs what a failing case needs: Copilot's output, every request the
// fake model got and what it answered, and the hooks' payloads.
func (h *copilotHarness) dump(t *testing.T, r *copilotRun, fake *fakeChat) {
	t.Logf("copilot -p error: %v\nstdout (JSON lines):\n%s\nstderr:\n%s", r.err, clip(r.stdout, 20000), clip(r.stderr, 8000))
	for i, req := range fake.Requests() {
		t.Logf("request %d: %s %s main=%v answer=%q\n  last messages: %s", i+1, req.Method, req.Path, req.Main, req.Answer, clip(string(lastOf(req.Body, "messages", 3)), 4000))
	}
	logHookPayloads(t, h.project)
}
