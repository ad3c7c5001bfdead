//go:build linux

package attacktest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pelletier/go-toml/v2"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
)

// The absolute form of the command lines install writes (install
// --absolute, a user's own file, and install --managed, which names the
// system's binary in the agents' admin layers) ran just that path: once
// the file was gone — the package removed, an upgrade half done — sh said
// "not found" and exited 127, which every agent reads as a hook that
// failed without objecting, so a gating event went through, in the managed
// layer of all places. For every agent and event of the registry, each
// absolute command line install wrote is run as the agent runs it (sh -c,
// or the script itself) with the program missing, not executable and a
// folder: a gating event gets the agent's own refusal, any other event
// passes silently. With the program there, it runs with the same
// arguments as before.
func TestInstalledAbsoluteCommandsWithoutTheBinary(t *testing.T) {
	e := newEnv(t)
	if err := os.MkdirAll(e.path("empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	// A path a shell must quote: a space and a single quote.
	exe := e.path("it's gone/bin dir/hermes-hooks")
	if err := os.MkdirAll(filepath.Dir(exe), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(binary, exe); err != nil {
		t.Fatal(err)
	}
	install := func(args ...string) {
		t.Helper()
		c := e.cmd("", args...)
		c.Path, c.Args[0] = exe, exe // install --absolute writes the path it was started by
		c.Dir = e.dir
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("hermes-hooks %v: %v\n%s", args, err, out)
		}
	}
	type form struct {
		name     string
		agent    *agents.Agent
		commands map[string][]string
	}
	var forms []form
	for _, a := range agents.All() {
		hf := a.HookFile
		if hf.Project == "" || len(hf.Events) == 0 {
			continue
		}
		project := e.path("project-" + a.Name)
		must(t, os.MkdirAll(project, 0o755))
		install("install", a.Name, "--project", project, "--absolute")
		forms = append(forms, form{"absolute", a, installedCommands(t, a, filepath.Join(project, hf.Project))})
		if m := a.ManagedLayer(); m != nil {
			root := e.path("root-" + a.Name)
			install("install", a.Name, "--managed", "--managed-root", root, "--binary", exe, "--force")
			forms = append(forms, form{"managed", a, managedCommands(t, a, filepath.Join(root, m.File("linux", false)))})
		}
	}
	rows, managed := 0, 0
	for _, f := range forms {
		a := f.agent
		for _, ev := range a.HookFile.Events {
			rows++
			if f.name == "managed" {
				managed++
			}
			t.Run(f.name+"/"+a.Name+"/"+ev, func(t *testing.T) {
				run, ok := f.commands[ev]
				if !ok {
					t.Fatalf("install wrote no command for %s", ev)
				}
				want := a.MissingReply(ev, agents.MissingProgramReason)
				for _, gone := range []struct {
					name  string
					place func()
				}{
					{"missing", func() {}},
					{"not executable", func() { must(t, os.WriteFile(exe, []byte("#!/bin/sh\nexit 0\n"), 0o644)) }},
					{"a folder", func() { must(t, os.Mkdir(exe, 0o755)) }},
				} {
					must(t, os.RemoveAll(exe))
					gone.place()
					got := runInstalled(t, e, run, e.path("empty"), []byte("{}"))
					if got.Exit != want.Exit || string(got.Stdout) != string(want.Stdout) || string(got.Stderr) != string(want.Stderr) {
						t.Errorf("program %s: exit %d, stdout %q, stderr %q\nwant exit %d, stdout %q, stderr %q\ncommand %q",
							gone.name, got.Exit, got.Stdout, got.Stderr, want.Exit, want.Stdout, want.Stderr, run)
					}
				}
				must(t, os.RemoveAll(exe))
				os.Remove(e.path("argv"))
				must(t, os.WriteFile(exe, []byte("#!/bin/sh\nprintf '%s\\n' \"$*\" > \"$WORK/argv\"\nexec "+shquote.Quote(binary)+" \"$@\"\n"), 0o755))
				got := runInstalled(t, e, run, e.path("empty"), []byte("{}"))
				argv, _ := os.ReadFile(e.path("argv"))
				wantArgv := "hook " + a.Name + " " + ev
				if d := a.Timeout(ev); d > 0 {
					wantArgv += " " + agents.AgentTimeoutFlag + " " + agents.FormatSeconds(d)
				}
				if string(argv) != wantArgv+"\n" || got.Exit != 0 {
					t.Errorf("with the program there: it ran as %q (exit %d, stderr %q); want %q, exit 0", argv, got.Exit, got.Stderr, wantArgv)
				}
			})
		}
	}
	if rows < 100 || managed < 20 {
		t.Fatalf("only %d agent events were tried (%d managed); the registry has more", rows, managed)
	}
}

// managedCommands reads what install --managed wrote for a at path: each
// event's command line, run with sh -c (Codex's requirements.toml is TOML,
// the others JSON).
func managedCommands(t *testing.T, a *agents.Agent, path string) map[string][]string {
	t.Helper()
	if !strings.HasSuffix(path, ".toml") {
		return installedCommands(t, a, path)
	}
	return hookCommands(t, path, toml.Unmarshal)
}
