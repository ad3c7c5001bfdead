package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/hermes-hooks/hermes-hooks/internal/testbin"
)

// TestMain registers the real main as the "hermes-hooks" command of the
// testscript scripts: each script line runs in a fresh process, exactly as
// a user's shell would.
//
// The test process itself calls run in-process too (claude_compat_test.go):
// there it must not become a subreaper and kill "escaped" children, which
// would be the scripts' commands and the async children they detach.
//
// Where a script's hermes-hooks is this test binary (see TestScripts),
// under -race its runtime would sleep a second at every exit (GORACE
// atexit_sleep_ms, default 1000) to let late reports through. The
// commands' races are still reported; only that wait goes.
func TestMain(m *testing.M) {
	subreap = false
	if os.Getenv("GORACE") == "" {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	programs := map[string]func(){
		"hermes-hooks": func() {
			subreap = true
			os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
	}
	for name, f := range scriptPrograms {
		programs[name] = f
	}
	testscript.Main(removingBin{m}, programs)
}

// plainBin is the binary users run, built once for the tests that run it
// (TestScripts, TestReadmeTutorial) into a directory removed once they
// are done (removingBin).
var plainBin struct {
	once sync.Once
	dir  string
	err  error
}

// plainBinDir is the directory holding that build of hermes-hooks.
func plainBinDir(t *testing.T) string {
	t.Helper()
	plainBin.once.Do(func() {
		if plainBin.dir, plainBin.err = os.MkdirTemp("", "hermes-hooks-bin-"); plainBin.err == nil {
			_, plainBin.err = testbin.Build(plainBin.dir, filepath.Join("..", ".."))
		}
	})
	if plainBin.err != nil {
		t.Fatal(plainBin.err)
	}
	return plainBin.dir
}

// removingBin runs the tests, then removes plainBin's directory:
// testscript.Main exits the process once they are run.
type removingBin struct{ *testing.M }

func (m removingBin) Run() int {
	code := m.M.Run()
	if plainBin.dir != "" {
		os.RemoveAll(plainBin.dir)
	}
	return code
}

// TestScripts runs testdata/script/*.txtar. Each script gets its own
// HERMES_HOME ($WORK/home) and HOME ($WORK/userhome), so nothing touches the
// real ~/.hermes.
//
// A script's hermes-hooks is a plain build of the binary (what users run),
// except in the scripts that keep one running beside their other commands
// (serve, log --follow: a line `exec … hermes-hooks … &name&`): there it is
// this test binary, so that under -race the race detector watches the
// long-lived process whose goroutines serve many requests. A one-shot's
// own concurrency is the dispatcher's and the server's, and their package
// tests run it under -race in-process; a race-instrumented start costs
// ~4× a plain one, and the scripts start hermes-hooks ~2,300 times — half
// of make test's time went there.
func TestScripts(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "script")
	raced, plain, err := splitScripts(dir)
	if err != nil {
		t.Fatal(err)
	}
	runScripts(t, raced, "")
	runScripts(t, plain, plainBinDir(t))
}

// longLived matches a script line that starts hermes-hooks in the
// background (testscript's trailing `&` or `&name&`).
var longLived = regexp.MustCompile(`(?m)^\s*!?\s*exec .*\bhermes-hooks\b.*&([A-Za-z0-9_]+&)?\s*$`)

// splitScripts sorts dir's scripts into those that keep a hermes-hooks
// running (raced) and the others.
func splitScripts(dir string) (raced, plain []string, err error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.txtar"))
	if err != nil {
		return nil, nil, err
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, nil, err
		}
		if longLived.Match(data) {
			raced = append(raced, f)
		} else {
			plain = append(plain, f)
		}
	}
	if len(raced) == 0 || len(plain) == 0 {
		return nil, nil, fmt.Errorf("%s: %d scripts keep hermes-hooks running, %d do not: expected some of each", dir, len(raced), len(plain))
	}
	return raced, plain, nil
}

// runScripts runs files; with binDir set, the scripts' hermes-hooks is the
// binary there rather than this test binary.
func runScripts(t *testing.T, files []string, binDir string) {
	testscript.Run(t, testscript.Params{
		Files: files,
		Setup: func(env *testscript.Env) error {
			if binDir != "" {
				env.Setenv("PATH", binDir+string(os.PathListSeparator)+env.Getenv("PATH"))
			}
			env.Setenv("HERMES_HOME", filepath.Join(env.WorkDir, "home"))
			env.Setenv("HOME", filepath.Join(env.WorkDir, "userhome"))
			env.Setenv("HERMES_ACCEPT_HOOKS", "")
			env.Setenv("GORACE", os.Getenv("GORACE"))
			env.Setenv("HERMES_SAFE_MODE", "")
			// No managed config but the one a script names (managed_*.txtar).
			env.Setenv("HERMES_HOOKS_MANAGED_CONFIG", "")
			// No Gemini CLI system settings but the ones a script writes
			// (doctor_env_stripped_attack.txtar): the machine's
			// /etc/gemini-cli can strip HERMES_HOME from its hooks.
			env.Setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", filepath.Join(env.WorkDir, "gemini-system", "settings.json"))
			// Nor Gemini CLI's strict mode, which a CI job's GITHUB_SHA
			// turns on (a script that wants it sets it).
			env.Setenv("GITHUB_SHA", "")
			env.Setenv("SURFACE", "")
			// Gemini CLI's home is HOME's, unless a script moves it.
			env.Setenv("GEMINI_CLI_HOME", "")
			// The repository, for the scripts that run its own files
			// (first_hour_demo.txtar runs scripts/demo.sh).
			repo, err := filepath.Abs(filepath.Join("..", ".."))
			if err != nil {
				return err
			}
			env.Setenv("REPO", repo)
			if err := os.MkdirAll(filepath.Join(env.WorkDir, "userhome"), 0o755); err != nil {
				return err
			}
			// For the scripts that build from the clone as a user would
			// (first_hour_install.txtar: make install): the repository, and
			// the go command's own cache and settings, which HOME above
			// would otherwise move.
			for k, v := range goEnv() {
				env.Setenv(k, v)
			}
			// The README's client examples and the example hooks, for the
			// scripts that run them (clients.txtar, workflow_guard.txtar).
			if err := copyDir(filepath.Join("..", "..", "testdata", "clients"), filepath.Join(env.WorkDir, "clients")); err != nil {
				return err
			}
			return copyDir(filepath.Join("..", "..", "agent-hooks"), filepath.Join(env.WorkDir, "agent-hooks"))
		},
		Cmds:                scriptCmds,
		Condition:           scriptCondition,
		RequireExplicitExec: true,
	})
}

// scriptCondition is the scripts' own conditions: [shbash], /bin/sh is
// bash here (Fedora, Arch), where a function bash imports from the
// environment reaches a hook an agent starts with sh -c before
// hermes-hooks does, which doctor reports as a failure
// (doctor_repoenv.txtar).
func scriptCondition(cond string) (bool, error) {
	if cond != "shbash" {
		return false, fmt.Errorf("unknown condition %q", cond)
	}
	switch runtime.GOOS {
	case "windows":
		return false, nil
	case "darwin": // sh runs the shell this link names: bash unless changed
		t, err := os.Readlink("/private/var/select/sh")
		return err != nil || filepath.Base(t) == "bash", nil
	}
	r, err := filepath.EvalSymlinks("/bin/sh")
	return err == nil && filepath.Base(r) == "bash", nil
}

// goEnv is REPO (the repository's root) and the go command's cache and
// settings files, computed once for every script.
var goEnv = sync.OnceValue(func() map[string]string {
	env := map[string]string{}
	if repo, err := filepath.Abs(filepath.Join("..", "..")); err == nil {
		env["REPO"] = repo
	}
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOENV").Output()
	if err != nil {
		return env // the scripts that need go skip without it
	}
	for i, v := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if i < 3 && v != "" {
			env[[]string{"GOCACHE", "GOMODCACHE", "GOENV"}[i]] = v
		}
	}
	return env
})

func copyDir(from, to string) error {
	entries, err := os.ReadDir(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(to, 0o755); err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() {
			continue
		}
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			return err
		}
		info, err := e.Info()
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, info.Mode().Perm()); err != nil {
			return err
		}
	}
	return nil
}
