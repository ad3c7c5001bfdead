package clients

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
	"github.com/hermes-hooks/hermes-hooks/internal/testbin"
)

// The binary every test here runs, built once per test process (no race
// detector: the Go code is tested elsewhere; here it is only the server).
var (
	buildOnce sync.Once
	binDir    string
	buildErr  error
)

func hermesHooks(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		binDir, buildErr = os.MkdirTemp("", "hermes-hooks-clients-")
		if buildErr != nil {
			return
		}
		_, buildErr = testbin.Build(binDir, "..")
	})
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	return binDir
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		os.RemoveAll(binDir)
	}
	os.Exit(code)
}

// need skips the test when the interpreter is missing (it is on every CI
// machine; AGENTS.md lists python3 and node as requirements).
func need(t *testing.T, tool string) {
	t.Helper()
	if _, err := exec.LookPath(tool); err != nil {
		t.Skipf("%s not on PATH: the %s client's tests cannot run here", tool, tool)
	}
}

// env is the environment of a client test: the fresh binary first on PATH,
// a throwaway HOME, and no HERMES_* settings of the machine.
func env(t *testing.T, extra ...string) []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "HERMES_") || strings.HasPrefix(kv, "PATH=") || strings.HasPrefix(kv, "HOME=") ||
			strings.HasPrefix(kv, "PYTHONPATH=") || strings.HasPrefix(kv, "NODE_OPTIONS=") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, append([]string{
		"PATH=" + hermesHooks(t) + string(os.PathListSeparator) + os.Getenv("PATH"),
		"HOME=" + t.TempDir(),
	}, extra...)...)
}

func run(t *testing.T, dir string, environ []string, name string, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	// Catches hangs only: a whole suite takes about a minute on a loaded
	// machine.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = dir
	cmd.Env = environ
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err = cmd.Run()
	return o.String(), e.String(), err
}

// TestPythonClient runs clients/python/tests (stdlib unittest) against the
// real binary: outcome round trips, server and one-shot agreeing, the
// dead-server fallback, timeouts, and the Hermes plugin's replies.
func TestPythonClient(t *testing.T) {
	need(t, "python3")
	t.Parallel()
	_, stderr, err := run(t, "python", env(t), "python3", "-m", "unittest", "discover", "-v")
	if err != nil || !strings.Contains(stderr, "\nOK") || strings.Contains(stderr, "skipped=") {
		t.Fatalf("python3 -m unittest discover (clients/python): %v\n%s", err, stderr)
	}
}

// TestNodeClient runs clients/node/test (node --test), the same checks.
func TestNodeClient(t *testing.T) {
	need(t, "node")
	t.Parallel()
	stdout, stderr, err := run(t, "node", env(t), "node", "--test")
	if err != nil || !strings.Contains(stdout, "\n# fail 0") || !strings.Contains(stdout, "\n# skipped 0") {
		t.Fatalf("node --test (clients/node): %v\n%s\n%s", err, stdout, stderr)
	}
}

// docs/agents.md and docs/serve.md quote these files of testdata/clients verbatim
// (cmd/hermes-hooks/readme_test.go checks the quoting); here they run,
// one-shot and through a live server, against the docs' example guard.
func TestReadmeClientSnippets(t *testing.T) {
	need(t, "python3")
	need(t, "node")
	t.Parallel()
	home := t.TempDir()
	work := t.TempDir()
	guard, err := filepath.Abs(filepath.Join("testdata", "hooks", "block.sh"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := "hooks:\n  pre_tool_call:\n    - command: " + guard + "\n      matcher: terminal\n"
	if err := os.WriteFile(filepath.Join(home, "config.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	python, err := filepath.Abs("python")
	if err != nil {
		t.Fatal(err)
	}
	e := env(t, "HERMES_HOME="+home, "PYTHONPATH="+python)
	if out, errs, err := run(t, work, e, filepath.Join(hermesHooks(t), "hermes-hooks"), "approve", "--all"); err != nil {
		t.Fatalf("approve: %v\n%s%s", err, out, errs)
	}
	// The Node snippet imports the package by name, as an installed copy.
	nodePkg, err := filepath.Abs("node")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(work, "node_modules"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(nodePkg, filepath.Join(work, "node_modules", "hermes-hooks")); err != nil {
		t.Fatal(err)
	}
	snippets := []struct{ file, interp, want string }{
		{"hermes_hooks_client.py", "python3", "blocked: rm -rf is not allowed here\n"},
		{"hermes_hooks_client.mjs", "node", "blocked: rm -rf is not allowed here\n"},
		{"hermes_plugin_check.py", "python3", "40 Hermes events registered\n{'action': 'block', 'message': 'rm -rf is not allowed here'}\n"},
	}
	for _, s := range snippets {
		body, err := os.ReadFile(filepath.Join("..", "testdata", "clients", s.file))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, s.file), body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	check := func(how string) {
		for _, s := range snippets {
			out, errs, err := run(t, work, e, s.interp, s.file)
			if err != nil || out != s.want {
				t.Errorf("%s %s (%s): %v\nstdout %q, want %q\nstderr %s", s.interp, s.file, how, err, out, s.want, errs)
			}
		}
	}
	check("one-shot")

	sock := filepath.Join(home, "hermes-hooks.sock")
	srv := exec.Command(filepath.Join(hermesHooks(t), "hermes-hooks"), "serve", "--listen", "unix://"+sock)
	srv.Dir, srv.Env = work, e
	// serve writes its log while the test reads it: a locked buffer.
	log := &proctest.Buffer{}
	srv.Stderr = log
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = srv.Process.Signal(os.Interrupt)
		_ = srv.Wait()
	}()
	for deadline := time.Now().Add(60 * time.Second); ; { // a hang guard: it listens in milliseconds
		if fi, err := os.Stat(sock); err == nil && fi.Mode()&os.ModeSocket != 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve did not listen within 60s:\n%s", log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	check("through serve")
	if n := strings.Count(log.String(), "decision=block"); n < len(snippets) {
		t.Errorf("serve answered %d of the %d snippets:\n%s", n, len(snippets), log.String())
	}
}

// Issue 27: after `install hermes`, a fresh Python process that reads
// Hermes' plugin list from config.yaml (as Hermes does: plugins.enabled,
// less plugins.disabled) finds the plugin enabled and loads it from
// $HERMES_HOME/plugins; uninstall gives the config back byte for byte.
func TestHermesInstallEnablesThePlugin(t *testing.T) {
	need(t, "python3")
	t.Parallel()
	home := t.TempDir()
	cfg := filepath.Join(home, "config.yaml")
	before := "# Hermes\nmodel:\n  default: anthropic/claude-sonnet-4   # mine\nplugins:\n  enabled:\n    - disk-cleanup\n  disabled: []\nhooks: {}\n"
	if err := os.WriteFile(cfg, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	e := env(t, "HERMES_HOME="+home)
	bin := filepath.Join(hermesHooks(t), "hermes-hooks")
	if out, errs, err := run(t, home, e, bin, "install", "hermes", "--gateway"); err != nil {
		t.Fatalf("install: %v\n%s%s", err, out, errs)
	}
	load := `import sys
from tests import standin
home = sys.argv[1]
print(standin.enabled_plugins(home))
gw = standin.Gateway(home)
gw.load_plugins()
gw.discover_and_load()
print(len(gw.plugin_hooks), "plugin events;", [h["name"] for h in gw.loaded_hooks], "gateway hook")
`
	want := "['disk-cleanup', 'hermes-hooks']\n40 plugin events; ['hermes-hooks'] gateway hook\n"
	if out, errs, err := run(t, "python", e, "python3", "-c", load, home); err != nil || out != want {
		t.Fatalf("python3 (Hermes' plugin list): %v\nstdout %q, want %q\n%s", err, out, want, errs)
	}
	if out, errs, err := run(t, home, e, bin, "uninstall", "hermes"); err != nil {
		t.Fatalf("uninstall: %v\n%s%s", err, out, errs)
	}
	if got, err := os.ReadFile(cfg); err != nil || string(got) != before {
		t.Fatalf("config after uninstall = %q (%v), want it as it was: %q", got, err, before)
	}
	for _, gone := range []string{"plugins", "hooks", "config.yaml" + install.BackupSuffix} {
		if _, err := os.Stat(filepath.Join(home, gone)); !os.IsNotExist(err) {
			t.Errorf("%s left behind (%v)", gone, err)
		}
	}
}
