//go:build e2e

package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/testbin"
)

const (
	// guardReason is what the project's guard answers for rm -r (and so
	// rm -rf); it must reach the model as the shell call's result.
	guardReason = "blocked by e2e guard: recursive rm is not allowed here"
	// contextMarker is what the project's pre_llm_call hook adds; it must
	// reach the model (a prompt hook's additional context, or a
	// post_tool_call one's). No prompt contains it.
	contextMarker = "E2E-CONTEXT-MARKER"
	// visibleFile is a file of the project that `ls` lists.
	visibleFile = "e2e-visible-file.txt"
	// unapprovedFile is what the unapproved hook would create.
	unapprovedFile = "unapproved-ran"

	// runTimeout bounds one agent run: it only catches a hang.
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

// harness is one project wired to hermes-hooks, with its homes and the
// hermes-hooks binary, shared by an agent's cases; each agent's adapter
// embeds it.
type harness struct {
	bin        string // hermes-hooks binary
	root       string // everything below lives here
	project    string // P: the agent's working directory
	home       string // HOME for the agent and hermes-hooks
	hermesHome string // HERMES_HOME
	logs       string // the agent's logs, one per run
	runs       int    // agent runs so far
	yaml       string // .hermes/hooks.yaml; hooksYAML when empty
	// workDir, when set, is where the agent and doctor run instead of
	// the project's root: a folder inside it (doctor_switch_nested_test.go).
	workDir string
}

// runDir is where the agent and doctor run: workDir, else the project.
func (h *harness) runDir() string {
	if h.workDir != "" {
		return h.workDir
	}
	return h.project
}

func (h *harness) base() *harness { return h }

// newHarness makes the test's directory tree (the project, the homes, the
// logs, the hermes-hooks binary's directory, and extra, relative to the
// root), builds hermes-hooks and writes the project's file for ls.
func newHarness(t *testing.T, extra ...string) *harness {
	t.Helper()
	h := &harness{root: tempDir(t)}
	h.project = filepath.Join(h.root, "project")
	h.home = filepath.Join(h.root, "home")
	h.hermesHome = filepath.Join(h.root, "hermes-home")
	h.logs = filepath.Join(h.root, "logs")
	dirs := []string{h.project, h.home, h.hermesHome, h.logs, filepath.Join(h.root, "bin")}
	for _, d := range extra {
		dirs = append(dirs, filepath.Join(h.root, d))
	}
	for _, d := range dirs {
		mustMkdir(t, d)
	}
	h.bin = buildHermesHooks(t, filepath.Join(h.root, "bin"))
	// What install writes into a project runs hermes-hooks by name from
	// PATH, as a user has it after make install: the agents inherit this
	// PATH through cleanEnv.
	t.Setenv("PATH", filepath.Dir(h.bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
	mustWrite(t, filepath.Join(h.project, visibleFile), "listed by ls\n", 0o644)
	return h
}

// install runs `hermes-hooks install AGENT --project P` and logs file,
// which it must have written running `hermes-hooks hook AGENT…` (want),
// clipped to n bytes.
func (h *harness) install(t *testing.T, agent, file, want string, n int) {
	t.Helper()
	out := h.hermesHooks(t, "install", agent, "--project", h.project)
	t.Logf("hermes-hooks install %s --project: %s", agent, strings.TrimSpace(out))
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatalf("after install: %v", err)
	}
	if !strings.Contains(string(data), want) {
		t.Fatalf("%s does not run hermes-hooks %s:\n%s", file, want, data)
	}
	t.Logf("%s:\n%s", file, clip(string(data), n))
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

// cleanEnvWithout is cleanEnv without the variables whose names start
// with one of prefixes (upper case): the user's own setup of one agent.
func cleanEnvWithout(prefixes ...string) []string {
	var env []string
	for _, kv := range cleanEnv() {
		name, _, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name)
		mine := false
		for _, p := range prefixes {
			mine = mine || strings.HasPrefix(upper, p)
		}
		if !mine {
			env = append(env, kv)
		}
	}
	return env
}

// agentEnv is an agent's environment: base, the throwaway homes, extra,
// and every connection but the fake model's sent to the fake's refusing
// proxy.
func (h *harness) agentEnv(base []string, fake *fakeServer, extra ...string) []string {
	env := append(base, "HOME="+h.home, "HERMES_HOME="+h.hermesHome)
	env = append(env, extra...)
	return append(env,
		"HTTPS_PROXY="+fake.URL(),
		"HTTP_PROXY="+fake.URL(),
		"NO_PROXY=127.0.0.1,localhost",
	)
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

// npmAgent is tool's binary (npmBinary), after logging its version.
func npmAgent(t *testing.T, tool npmTool) string {
	t.Helper()
	bin := npmBinary(t, tool)
	v, err := runVersion(bin)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %s (%s)", tool.what, strings.SplitN(v, "\n", 2)[0], bin)
	return bin
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
