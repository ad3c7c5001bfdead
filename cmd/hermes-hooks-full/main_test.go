package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/internal/oneshot"
	"github.com/rogpeppe/go-internal/testscript"
	"github.com/spf13/pflag"
)

// TestMain registers the two real mains as the "hermes-hooks" (the front,
// cmd/hermes-hooks) and "hermes-hooks-full" commands of the testscript
// scripts, side by side in one directory as make build and go install put
// them: each script line runs in a fresh process, exactly as a user's shell
// would, and every command the front does not answer goes through its
// hand-over to the complete program.
//
// The test process itself calls run in-process too (claude_compat_test.go):
// there it must not become a subreaper and kill "escaped" children, which
// would be the scripts' commands and the async children they detach.
//
// Every command is this test binary; under -race, its runtime would sleep a
// second at every exit (GORACE atexit_sleep_ms, default 1000) to let late
// reports through — most of make test's time. The commands' races are still
// reported; only that wait goes.
func TestMain(m *testing.M) {
	subreap = false
	if os.Getenv("GORACE") == "" {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	testscript.Main(m, map[string]func(){
		// As installed: the front, which answers dispatch and hook and
		// hands everything else to the complete program beside it.
		"hermes-hooks": func() {
			// The installed front links neither engine (see
			// dispatcher.Engines); this binary, the complete program,
			// installed both when it started.
			dispatcher.UseEngines(dispatcher.Engines{})
			os.Exit(oneshot.Front(os.Args, os.Stdin, os.Stdout, os.Stderr))
		},
		oneshot.FullName: func() {
			if warning := takeFrontPath(oneshot.Version()); warning != "" {
				fmt.Fprintf(os.Stderr, "hermes-hooks: warning: %s\n", warning)
			}
			subreap = true
			os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
		},
	})
}

// TestScripts runs testdata/script/*.txtar. Each script gets its own
// HERMES_HOME ($WORK/home) and HOME ($WORK/userhome), so nothing touches the
// real ~/.hermes.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("..", "..", "testdata", "script"),
		Setup: func(env *testscript.Env) error {
			env.Setenv("HERMES_HOME", filepath.Join(env.WorkDir, "home"))
			env.Setenv("HOME", filepath.Join(env.WorkDir, "userhome"))
			env.Setenv("HERMES_ACCEPT_HOOKS", "")
			env.Setenv("GORACE", os.Getenv("GORACE"))
			env.Setenv("HERMES_SAFE_MODE", "")
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
		RequireExplicitExec: true,
	})
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

// The front (oneshot.Front) answers dispatch, hook and version with a flag
// table of its own: it must read exactly the flags these commands take
// here, global ones included, or a command line would mean one thing to
// the front and another to this program.
func TestFrontReadsTheFlagsOfTheCommandsItAnswers(t *testing.T) {
	root := newRootCmd(&app{})
	for _, name := range []string{"dispatch", "hook", "version"} {
		cmd, _, err := root.Find([]string{name})
		if err != nil || cmd.Name() != name {
			t.Fatalf("%s: %v", name, err)
		}
		var ours []string
		collect := func(f *pflag.Flag) {
			if f.Name != "help" {
				ours = append(ours, f.Name)
			}
		}
		cmd.LocalFlags().VisitAll(collect)
		cmd.InheritedFlags().VisitAll(collect)
		front := oneshot.FrontFlags(name)
		slices.Sort(ours)
		slices.Sort(front)
		if !slices.Equal(ours, front) {
			t.Errorf("%s: this program's flags %v, the front's %v", name, ours, front)
		}
	}
}

// Two binaries can drift apart (one upgraded, not the other): the complete
// program says so when the front that handed it the command line comes
// from another build, and takes both variables out of its environment.
func TestFrontVersionSkewIsReported(t *testing.T) {
	t.Setenv(oneshot.FrontEnv, "/opt/bin/hermes-hooks")
	t.Setenv(oneshot.FrontVersionEnv, "v1.2.0")
	if w := takeFrontPath("v1.3.0"); !strings.Contains(w, "hermes-hooks is v1.2.0 but hermes-hooks-full is v1.3.0") {
		t.Fatalf("warning %q", w)
	}
	if frontSelf != "/opt/bin/hermes-hooks" {
		t.Fatalf("front path %q", frontSelf)
	}
	if _, ok := os.LookupEnv(oneshot.FrontVersionEnv); ok {
		t.Fatal("the front's version stayed in the environment")
	}
	if _, ok := os.LookupEnv(oneshot.FrontEnv); ok {
		t.Fatal("the front's path stayed in the environment")
	}
	t.Setenv(oneshot.FrontVersionEnv, "v1.3.0")
	if w := takeFrontPath("v1.3.0"); w != "" {
		t.Fatalf("same build warned: %q", w)
	}
	frontSelf = ""
	if w := takeFrontPath("v1.3.0"); w != "" || frontSelf != "" {
		t.Fatalf("started directly: warning %q, front %q", w, frontSelf)
	}
}
