//go:build e2e

package e2e

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/testbin"
)

const (
	// guardReason is what the project's guard answers for rm -r (and so
	// rm -rf); it must reach the model as the Bash call's result.
	guardReason = "blocked by e2e guard: recursive rm is not allowed here"
	// contextMarker is what the project's pre_llm_call hook adds; it must
	// reach the model (UserPromptSubmit additionalContext). No prompt
	// contains it.
	contextMarker = "E2E-CONTEXT-MARKER"
	// visibleFile is a file of the project that `ls` lists.
	visibleFile = "e2e-visible-file.txt"
	// unapprovedFile is what the unapproved hook would create.
	unapprovedFile = "unapproved-ran"

	// runTimeout bounds one Claude Code run: it only catches a hang.
	runTimeout = 3 * time.Minute
	// npmTimeout bounds the npm install.
	npmTimeout = 5 * time.Minute
)

// The project's Hermes hooks: a guard, a context hook and one hook nobody
// approves. The approved ones log their payload (one JSON line per call)
// in .hermes/, so a failure shows what they were given. Hooks run in the
// project root.
const (
	hooksYAML = `hooks:
  pre_tool_call:
    - command: ./.hermes/guard.sh
      matcher: terminal
      fail_closed: true
      timeout: 30
    - command: ./.hermes/unapproved.sh
      matcher: terminal
  pre_llm_call:
    - command: ./.hermes/context.sh
      timeout: 30
    - command: ./.hermes/unapproved.sh
  post_tool_call:
    - command: ./.hermes/unapproved.sh
`
	// The guard matches the whole payload rather than parsing it (no jq
	// needed): any payload that mentions rm -r (rm -rf included) is
	// refused, which errs on the safe side.
	guardScript = `#!/bin/sh
# e2e guard (Hermes dialect): refuse a terminal command containing rm -r.
payload=$(cat)
printf '%s\n' "$payload" >> .hermes/guard.log
case "$payload" in
*'rm -r'*) printf '%s\n' '{"action": "block", "message": "` + guardReason + `"}' ;;
esac
exit 0
`
	contextScript = `#!/bin/sh
# e2e context hook (Hermes dialect, pre_llm_call): add a marker for the model.
payload=$(cat)
printf '%s\n' "$payload" >> .hermes/context.log
printf '%s\n' '{"context": "` + contextMarker + `: the e2e context hook ran"}'
`
	unapprovedScript = `#!/bin/sh
# Never approved: if this ever runs, the test fails.
cat >/dev/null
touch ` + unapprovedFile + `
echo '{}'
`
)

// toolContextYAML is hooksYAML with the context hook on post_tool_call
// too, for agents that do not give the model a prompt hook's context.
var toolContextYAML = strings.Replace(hooksYAML, "  post_tool_call:\n", "  post_tool_call:\n    - command: ./.hermes/context.sh\n      timeout: 30\n", 1)

// claudeEvents are the events whose hooks run hermes-hooks.
var claudeEvents = []string{"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart"}

// harness is one Claude Code installation and one project wired to
// hermes-hooks, shared by the cases.
type harness struct {
	claude     string // Claude Code binary
	bin        string // hermes-hooks binary
	root       string // everything below lives here
	project    string // P: Claude Code's working directory
	home       string // HOME for Claude Code and hermes-hooks
	hermesHome string // HERMES_HOME
	logs       string // Claude Code debug logs, one per run
	runs       int    // Claude Code runs so far
	yaml       string // .hermes/hooks.yaml; hooksYAML when empty
}

func TestClaudeCode(t *testing.T) {
	start := time.Now()
	h := &harness{claude: claudeBinary(t)}
	t.Logf("Claude Code: %s (%s)", claudeVersion(t, h.claude), h.claude)

	h.root = tempDir(t)
	h.project = filepath.Join(h.root, "project")
	h.home = filepath.Join(h.root, "home")
	h.hermesHome = filepath.Join(h.root, "hermes-home")
	h.logs = filepath.Join(h.root, "logs")
	for _, d := range []string{h.project, h.home, h.hermesHome, h.logs, filepath.Join(h.root, "bin")} {
		mustMkdir(t, d)
	}
	h.bin = buildHermesHooks(t, filepath.Join(h.root, "bin"))
	mustWrite(t, filepath.Join(h.project, visibleFile), "listed by ls\n", 0o644)

	installClaude(t, h.bin, h.project, h.hermesEnv())
	h.writeHermesProject(t)

	t.Run("GuardBlocksRmRf", h.testGuardBlocks)
	t.Run("LsResultReachesModel", h.testLsRuns)
	t.Run("ContextReachesModel", h.testContext)
	t.Run("UnapprovedHookNeverRuns", h.testUnapproved)
	t.Logf("total %s, %d Claude Code run(s)", time.Since(start).Round(time.Millisecond), h.runs)
}

// testGuardBlocks: the model asks Bash for rm -rf on a directory of the
// project; the guard refuses, the directory survives and the model reads
// the guard's reason as the tool's result.
func (h *harness) testGuardBlocks(t *testing.T) {
	marker := filepath.Join(h.project, "marker")
	mustMkdir(t, marker)
	mustWrite(t, filepath.Join(marker, "keep.txt"), "the guard must keep me\n", 0o644)
	// Safety: the only destructive command is on a path inside the test's
	// own temporary directory. If the guard failed, Claude Code would run it.
	h.mustBeInside(t, marker)
	command := "rm -rf " + shellQuote(marker)

	fake := newFakeAPI(t, script{Prompt: "E2E-PROMPT-guard: please delete the marker directory.", Command: command})
	res := h.runClaude(t, fake)
	res.requireSuccess(t)

	if _, err := os.Stat(filepath.Join(marker, "keep.txt")); err != nil {
		t.Errorf("the guard did not stop %q: %v", command, err)
	}
	tr := toolResultOf(t, fake)
	if tr == nil {
		t.Fatalf("no request to the model carried the result of the Bash call %s", toolUseID)
	}
	if got := tr.text(); !strings.Contains(got, guardReason) {
		t.Errorf("the Bash call's result does not carry the guard's reason %q; the model read (is_error=%v):\n%s", guardReason, tr.IsError, got)
	} else {
		t.Logf("the model read (is_error=%v): %s", tr.IsError, got)
	}
	if !fileContains(t, filepath.Join(h.project, ".hermes", "guard.log"), "rm -rf") {
		t.Errorf("the guard never saw the rm -rf call (.hermes/guard.log)")
	}
}

// testLsRuns: a harmless command passes the guard and its output reaches
// the model.
func (h *harness) testLsRuns(t *testing.T) {
	fake := newFakeAPI(t, script{Prompt: "E2E-PROMPT-ls: list the files here.", Command: "ls"})
	res := h.runClaude(t, fake)
	res.requireSuccess(t)

	tr := toolResultOf(t, fake)
	if tr == nil {
		t.Fatalf("no request to the model carried the result of the Bash call %s", toolUseID)
	}
	got := tr.text()
	if !strings.Contains(got, visibleFile) || strings.Contains(got, guardReason) || tr.IsError {
		t.Errorf("ls should have run and its output reached the model (listing %s); the model read (is_error=%v):\n%s", visibleFile, tr.IsError, got)
	}
}

// testContext: the pre_llm_call hook's context reaches the model through
// UserPromptSubmit's additionalContext.
func (h *harness) testContext(t *testing.T) {
	fake := newFakeAPI(t, script{Prompt: "E2E-PROMPT-context: say done."})
	res := h.runClaude(t, fake)
	res.requireSuccess(t)

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
func (h *harness) testUnapproved(t *testing.T) {
	if h.runs == 0 { // run alone (go test -run): give it a session of its own
		fake := newFakeAPI(t, script{Prompt: "E2E-PROMPT-unapproved: list the files here.", Command: "ls"})
		h.runClaude(t, fake).requireSuccess(t)
	}
	checkUnapprovedNeverRan(t, h.project)
}

// logHookPayloads logs the payloads the project's logging hooks got.
func logHookPayloads(t *testing.T, project string) {
	for _, name := range []string{"guard.log", "context.log"} {
		if data, err := os.ReadFile(filepath.Join(project, ".hermes", name)); err == nil {
			t.Logf(".hermes/%s (payloads the hook got):\n%s", name, clip(string(data), 8000))
		}
	}
}

// checkUnapprovedNeverRan: the approved context hook ran in the project's
// sessions (else the check proves nothing) and the unapproved one did not.
func checkUnapprovedNeverRan(t *testing.T, project string) {
	t.Helper()
	if !fileContains(t, filepath.Join(project, ".hermes", "context.log"), "{") {
		t.Fatalf("the approved context hook never ran, so the runs prove nothing about the unapproved one")
	}
	if _, err := os.Stat(filepath.Join(project, unapprovedFile)); err == nil {
		t.Errorf("the unapproved hook ran: %s exists", unapprovedFile)
	} else if !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
}

// writeHermesProject writes the project's .hermes/hooks.yaml and scripts
// and approves the guard and the context hook — not the third one — for
// this project, in HERMES_HOME.
func (h *harness) writeHermesProject(t *testing.T) {
	t.Helper()
	dir := filepath.Join(h.project, ".hermes")
	mustMkdir(t, dir)
	yaml := h.yaml
	if yaml == "" {
		yaml = hooksYAML
	}
	mustWrite(t, filepath.Join(dir, "hooks.yaml"), yaml, 0o644)
	mustWrite(t, filepath.Join(dir, "guard.sh"), guardScript, 0o755)
	mustWrite(t, filepath.Join(dir, "context.sh"), contextScript, 0o755)
	mustWrite(t, filepath.Join(dir, "unapproved.sh"), unapprovedScript, 0o755)
	for _, c := range []string{"./.hermes/guard.sh", "./.hermes/context.sh"} {
		h.hermesHooks(t, "approve", c)
	}
	list := h.hermesHooks(t, "list")
	t.Logf("hermes-hooks list:\n%s", list)
	if !strings.Contains(list, "unapproved.sh") {
		t.Fatalf("hermes-hooks list does not show the unapproved hook")
	}
}

// hermesHooks runs the hermes-hooks binary in the project with the test's
// HERMES_HOME and returns its stdout; a non-zero exit fails the test.
func (h *harness) hermesHooks(t *testing.T, args ...string) string {
	t.Helper()
	cmd := exec.Command(h.bin, args...)
	cmd.Dir = h.project
	cmd.Env = h.hermesEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("hermes-hooks %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	return stdout.String()
}

// hermesEnv is the environment for hermes-hooks run by the test itself.
func (h *harness) hermesEnv() []string {
	return append(cleanEnv(), "HOME="+h.home, "HERMES_HOME="+h.hermesHome)
}

// claudeEnv is Claude Code's environment: the fake API, a throwaway home,
// no updater, telemetry or error reporting, and every other connection
// sent to the fake's refusing proxy.
func (h *harness) claudeEnv(fake *fakeAPI) []string {
	return append(cleanEnv(),
		"HOME="+h.home,
		"HERMES_HOME="+h.hermesHome,
		"ANTHROPIC_BASE_URL="+fake.URL(),
		"ANTHROPIC_API_KEY=e2e-dummy-key",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1",
		"HTTPS_PROXY="+fake.URL(),
		"HTTP_PROXY="+fake.URL(),
		"NO_PROXY=127.0.0.1,localhost",
	)
}

// cleanEnv is the test's environment without what would point a child at
// the user's own agent setup, credentials, proxies or an enclosing Claude
// Code or Codex session.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name)
		switch {
		case strings.HasPrefix(upper, "ANTHROPIC_"), strings.HasPrefix(upper, "CLAUDE"),
			strings.HasPrefix(upper, "OPENAI_"), strings.HasPrefix(upper, "CODEX_"),
			strings.HasPrefix(upper, "HERMES_"), strings.HasPrefix(upper, "XDG_"),
			strings.HasPrefix(upper, "AWS_"), strings.HasPrefix(upper, "GOOGLE_"), strings.HasPrefix(upper, "GEMINI_"),
			strings.HasSuffix(upper, "_PROXY"), upper == "HOME":
			continue
		}
		env = append(env, kv)
	}
	return env
}

// claudeRun is one finished Claude Code run.
type claudeRun struct {
	err            error
	stdout, stderr string
	elapsed        time.Duration
}

// runClaude runs `claude -p` in the project against fake, bounded by
// runTimeout, and dumps what helps when the calling test fails.
func (h *harness) runClaude(t *testing.T, fake *fakeAPI) *claudeRun {
	t.Helper()
	h.runs++
	debugLog := filepath.Join(h.logs, fmt.Sprintf("claude-debug-%d.log", h.runs))
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, h.claude,
		"-p", fake.script.Prompt,
		"--allowedTools", "Bash",
		"--output-format", "json",
		"--debug-file", debugLog)
	cmd.Dir = h.project
	cmd.Env = h.claudeEnv(fake)
	// Its own process group, killed whole at the timeout: the Bash tool's
	// children must not outlive the run.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 10 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res := &claudeRun{err: err, stdout: stdout.String(), stderr: stderr.String(), elapsed: time.Since(start)}
	if ctx.Err() != nil {
		res.err = fmt.Errorf("no answer within %s (killed): %v", runTimeout, err)
	}
	t.Logf("claude -p ran %s (exit: %v); the fake API answered:", res.elapsed.Round(time.Millisecond), res.err)
	for _, r := range fake.Requests() {
		t.Logf("  %s %s → %s", r.Method, r.Path, r.summary())
	}
	for _, e := range fake.Egress() {
		t.Logf("refused a connection Claude Code tried to open: %s", e)
	}
	t.Cleanup(func() {
		if t.Failed() {
			h.dump(t, res, fake, debugLog)
		}
	})
	return res
}

// requireSuccess stops the test unless Claude Code exited 0 and printed a
// successful JSON result.
func (r *claudeRun) requireSuccess(t *testing.T) {
	t.Helper()
	if r.err != nil {
		t.Fatalf("claude -p failed: %v", r.err)
	}
	var out struct {
		Subtype string `json:"subtype"`
		IsError bool   `json:"is_error"`
		Result  string `json:"result"`
	}
	if err := json.Unmarshal([]byte(strings.TrimSpace(r.stdout)), &out); err != nil {
		t.Fatalf("claude -p did not print its JSON result: %v", err)
	}
	if out.IsError || out.Result != "done" {
		t.Fatalf("claude -p finished with %s (is_error=%v), result %q; want the fake model's final %q", out.Subtype, out.IsError, out.Result, "done")
	}
}

// dump logs what a failing case needs: Claude Code's output, every request
// the fake model got and what it answered, the hooks' payloads and the
// hook lines of Claude Code's debug log.
func (h *harness) dump(t *testing.T, r *claudeRun, fake *fakeAPI, debugLog string) {
	t.Logf("claude -p error: %v\nstdout:\n%s\nstderr:\n%s", r.err, r.stdout, r.stderr)
	for i, req := range fake.Requests() {
		t.Logf("request %d: %s %s main=%v answer=%q\n  messages: %s", i+1, req.Method, req.Path, req.Main, req.Answer, clip(string(memberOf(req.Body, "messages")), 4000))
	}
	logHookPayloads(t, h.project)
	if f, err := os.Open(debugLog); err == nil {
		defer f.Close()
		var lines []string
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if l := sc.Text(); strings.Contains(strings.ToLower(l), "hook") {
				lines = append(lines, clip(l, 2000))
			}
		}
		if len(lines) > 200 {
			lines = lines[len(lines)-200:]
		}
		t.Logf("hook lines of Claude Code's debug log %s (HERMES_E2E_KEEP=1 keeps it):\n%s", debugLog, strings.Join(lines, "\n"))
	}
}

// toolResultOf returns the result of the scripted Bash call as the model
// received it, from the last main-conversation request carrying it.
func toolResultOf(t *testing.T, fake *fakeAPI) *contentBlock {
	t.Helper()
	var found *contentBlock
	for _, r := range fake.Requests() {
		if !r.Main {
			continue
		}
		var req messagesRequest
		if err := json.Unmarshal(r.Body, &req); err != nil {
			t.Fatal(err)
		}
		if b := req.toolResult(toolUseID); b != nil {
			found = b
		}
	}
	return found
}

// claudeBinary finds Claude Code: $HERMES_E2E_CLAUDE, else the npm package
// cached in the user cache directory (installed there when missing), else
// the test skips.
func claudeBinary(t *testing.T) string {
	t.Helper()
	return npmBinary(t, npmTool{
		what: "Claude Code", pkg: "@anthropic-ai/claude-code", bin: "claude",
		binEnv: "HERMES_E2E_CLAUDE", versionEnv: "HERMES_E2E_CLAUDE_VERSION",
		slot: "npm",
	})
}

// npmTool is an agent CLI published on npm.
type npmTool struct {
	what       string // its name in messages: "Claude Code"
	pkg        string // the npm package
	bin        string // the binary it installs in node_modules/.bin
	binEnv     string // names a binary to use instead of npm
	versionEnv string // names the version or tag to install
	version    string // installed when versionEnv is unset; "" = npm's pick
	slot       string // the cache directory's prefix
}

// npmBinary finds tool: $binEnv, else its npm package cached in the user
// cache directory (installed there when missing), else the test skips.
func npmBinary(t *testing.T, tool npmTool) string {
	t.Helper()
	if p := os.Getenv(tool.binEnv); p != "" {
		if _, err := runVersion(p); err != nil {
			t.Fatalf("%s=%s does not run: %v", tool.binEnv, p, err)
		}
		return p
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Skipf("skipped: npm is not on PATH, so %s cannot be installed (install Node.js and npm, or set %s=/path/to/%s)", tool.what, tool.binEnv, tool.bin)
	}
	// Without a version npm picks the newest release whose "engines" the
	// local Node satisfies; $versionEnv (latest, or a version) asks for
	// another one, installed beside the default.
	pkg, slot := tool.pkg, tool.slot+"-default"
	v := os.Getenv(tool.versionEnv)
	if v == "" {
		v = tool.version
	}
	if v != "" {
		if strings.ContainsAny(v, "/\\ ") || strings.HasPrefix(v, ".") {
			t.Fatalf("%s=%q is not a version or tag", tool.versionEnv, v)
		}
		pkg, slot = pkg+"@"+v, tool.slot+"-"+v
	}
	prefix := ""
	if cache, err := os.UserCacheDir(); err == nil {
		prefix = filepath.Join(cache, "hermes-hooks-e2e", slot)
		if err := os.MkdirAll(prefix, 0o755); err != nil {
			t.Logf("cannot cache the npm install in %s (%v); installing into a temporary directory", prefix, err)
			prefix = ""
		}
	}
	if prefix == "" {
		prefix = t.TempDir()
	}
	bin := filepath.Join(prefix, "node_modules", ".bin", tool.bin)
	if os.Getenv("HERMES_E2E_UPDATE") == "" {
		if _, err := runVersion(bin); err == nil {
			t.Logf("reusing the cached npm install in %s (HERMES_E2E_UPDATE=1 reinstalls)", prefix)
			return bin
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), npmTimeout)
	defer cancel()
	start := time.Now()
	cmd := exec.CommandContext(ctx, npm, "install", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error",
		// Offline, fail in seconds rather than after npm's minute of retries.
		"--fetch-retries=1", "--fetch-retry-mintimeout=1000", "--fetch-retry-maxtimeout=5000",
		pkg)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Skipf("skipped: npm install %s failed (%v), so there is no %s to test against:\n%s", pkg, err, tool.what, clip(string(out), 4000))
	}
	if _, err := runVersion(bin); err != nil {
		t.Skipf("skipped: npm installed %s in %s, but %s does not run: %v", pkg, prefix, bin, err)
	}
	t.Logf("npm installed %s in %s in %s", pkg, prefix, time.Since(start).Round(time.Millisecond))
	return bin
}

// claudeVersion is `claude --version`.
func claudeVersion(t *testing.T, bin string) string {
	t.Helper()
	v, err := runVersion(bin)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func runVersion(bin string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--version")
	cmd.Env = append(cleanEnv(), "HOME="+os.TempDir(), "DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s --version: %w", bin, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// buildHermesHooks builds the binary under test into dir.
func buildHermesHooks(t *testing.T, dir string) string {
	t.Helper()
	bin, err := testbin.Build(dir, "..")
	if err != nil {
		t.Fatal(err)
	}
	return bin
}

// installClaude wires Claude Code in project to hermes-hooks: through
// `hermes-hooks install claude --project P` when that verb exists, else by
// writing the same .claude/settings.json itself.
func installClaude(t *testing.T, bin, project string, env []string) {
	t.Helper()
	cmd := exec.Command(bin, "install", "claude", "--project", project)
	cmd.Dir = project
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	settings := filepath.Join(project, ".claude", "settings.json")
	switch {
	case err == nil:
		t.Logf("hermes-hooks install claude --project: %s", strings.TrimSpace(stdout.String()))
	case !hasVerb(bin, "install"):
		t.Logf("hermes-hooks has no install verb yet (%s); writing %s as it would", strings.TrimSpace(stderr.String()), settings)
		hooks := map[string]any{}
		for _, ev := range claudeEvents {
			hooks[ev] = []any{map[string]any{"hooks": []any{map[string]any{
				"type": "command", "command": shellQuote(bin) + " hook claude",
			}}}}
		}
		data, err := json.MarshalIndent(map[string]any{"hooks": hooks}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		mustMkdir(t, filepath.Dir(settings))
		mustWrite(t, settings, string(data)+"\n", 0o644)
	default:
		t.Fatalf("hermes-hooks install claude --project %s: %v\nstdout:\n%s\nstderr:\n%s", project, err, stdout.String(), stderr.String())
	}
	data, err := os.ReadFile(settings)
	if err != nil {
		t.Fatalf("after install: %v", err)
	}
	t.Logf("%s:\n%s", settings, data)
}

// hasVerb reports whether the hermes-hooks binary has the verb: its help
// then shows the verb's own usage. (For a missing verb cobra rejects the
// verb's flags before it rejects the verb, so the error alone does not say.)
func hasVerb(bin, verb string) bool {
	out, _ := exec.Command(bin, verb, "--help").Output()
	return strings.Contains(string(out), "hermes-hooks "+verb)
}

// tempDir is t.TempDir, or with HERMES_E2E_KEEP=1 a directory that stays.
func tempDir(t *testing.T) string {
	t.Helper()
	if os.Getenv("HERMES_E2E_KEEP") == "" {
		return t.TempDir()
	}
	dir, err := os.MkdirTemp("", "hermes-hooks-e2e-")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("HERMES_E2E_KEEP: keeping %s", dir)
	return dir
}

// mustBeInside fails the test unless path is inside the harness's root.
func (h *harness) mustBeInside(t *testing.T, path string) {
	t.Helper()
	rel, err := filepath.Rel(h.root, path)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") || !strings.HasPrefix(h.root, os.TempDir()) {
		t.Fatalf("refusing to script a destructive command on %s: not inside the test's temporary directory %s", path, h.root)
	}
}

// shellQuote quotes s for /bin/sh.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func mustMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t *testing.T, path, content string, mode os.FileMode) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), mode); err != nil {
		t.Fatal(err)
	}
}

// fileContains reports whether the file exists and contains s.
func fileContains(t *testing.T, path, s string) bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return strings.Contains(string(data), s)
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + fmt.Sprintf("… (%d more bytes)", len(s)-n)
}
