//go:build linux

package attacktest

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
)

// Issue 32, item 1: a project's hook file is committed and shared, so its
// command lines must work for every teammate. Install used to write this
// machine's absolute path there: anyone else got "command not found",
// which most agents read as "no objection". For every agent and every
// event install registers (rows from the registry: a new agent is covered
// without editing this test), the exact command line install wrote is run
// as the agent runs it — through sh -c, or as the script it is — with a
// PATH that lacks hermes-hooks: a gating event gets the agent's own
// refusal (the bytes and exit code of agents.Deny), any other event passes
// silently. With hermes-hooks on PATH, it runs, with the agent's deadline.
func TestInstalledCommandsWithoutHermesHooksOnPath(t *testing.T) {
	e := newEnv(t)
	// hermes-hooks on PATH, as a wrapper that records how it was called.
	e.write("bin/hermes-hooks", "#!/bin/sh\nprintf '%s\\n' \"$*\" > \"$WORK/argv\"\nexec "+shquote.Quote(binary)+" \"$@\"\n", 0o755)
	if err := os.MkdirAll(e.path("empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	// Alice installs through her own copy, which the teammates running the
	// command lines below do not have (it is gone when they run).
	if err := os.MkdirAll(e.path("alice"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(binary, e.path("alice/hermes-hooks")); err != nil {
		t.Fatal(err)
	}
	alice := func(args ...string) {
		t.Helper()
		c := exec.Command(e.path("alice/hermes-hooks"), args...)
		c.Dir, c.Env = e.dir, e.vars
		if out, err := c.CombinedOutput(); err != nil {
			t.Fatalf("hermes-hooks %v: %v\n%s", args, err, out)
		}
	}
	rows := 0
	installed := map[*agents.Agent]map[string][]string{}
	for _, a := range agents.All() {
		hf := a.HookFile
		if hf.Project == "" || len(hf.Events) == 0 {
			continue
		}
		project := e.path("project-" + a.Name)
		if err := os.MkdirAll(project, 0o755); err != nil {
			t.Fatal(err)
		}
		alice("install", a.Name, "--project", project)
		installed[a] = installedCommands(t, a, filepath.Join(project, hf.Project))
	}
	if err := os.RemoveAll(e.path("alice")); err != nil {
		t.Fatal(err)
	}
	for _, a := range agents.All() {
		commands, ok := installed[a]
		if !ok {
			continue
		}
		for _, ev := range a.HookFile.Events {
			rows++
			t.Run(a.Name+"/"+ev, func(t *testing.T) {
				run, ok := commands[ev]
				if !ok {
					t.Fatalf("install wrote no command for %s", ev)
				}
				canon, _ := a.Canonical(ev)
				want := a.MissingReply(ev, agents.MissingReason)
				if canon.Gating() && want.Exit == 0 && len(want.Stdout) == 0 {
					t.Fatalf("%s has no refusal for the gating event %s", a.Title, ev)
				}
				got := runInstalled(t, e, run, e.path("empty"), []byte("{}"))
				if got.Exit != want.Exit || string(got.Stdout) != string(want.Stdout) || string(got.Stderr) != string(want.Stderr) {
					t.Errorf("without hermes-hooks on PATH: exit %d, stdout %q, stderr %q\nwant exit %d, stdout %q, stderr %q",
						got.Exit, got.Stdout, got.Stderr, want.Exit, want.Stdout, want.Stderr)
				}
				os.Remove(e.path("argv"))
				got = runInstalled(t, e, run, e.path("bin"), []byte("{}"))
				code, errOut := got.Exit, string(got.Stderr)
				argv, _ := os.ReadFile(e.path("argv"))
				wantArgv := "hook " + a.Name + " " + ev
				if d := a.Timeout(ev); d > 0 {
					wantArgv += " " + agents.AgentTimeoutFlag + " " + agents.FormatSeconds(d)
				}
				if string(argv) != wantArgv+"\n" || code != 0 {
					t.Errorf("with hermes-hooks on PATH: it ran as %q (exit %d, stderr %q); want %q, exit 0", argv, code, errOut, wantArgv)
				}
			})
		}
	}
	if rows < 50 {
		t.Fatalf("only %d agent events were tried; the registry has more", rows)
	}
}

// installedCommands reads what install wrote for a: each event's command
// line (run with sh -c), or, for a folder of scripts, the script's path
// (run as it is, as the agent runs it).
func installedCommands(t *testing.T, a *agents.Agent, path string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	if a.HookFile.Layout == agents.Scripts {
		for _, ev := range a.HookFile.Events {
			out[ev] = []string{filepath.Join(path, ev)}
		}
		return out
	}
	return hookCommands(t, path, json.Unmarshal)
}

// hookCommands reads the hooks table of the file at path (decoded by
// unmarshal: JSON, or Codex's TOML): each event's one command line, run
// with sh -c.
func hookCommands(t *testing.T, path string, unmarshal func([]byte, any) error) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Hooks map[string]any `json:"hooks" toml:"hooks"`
	}
	if err := unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out := map[string][]string{}
	for ev, list := range doc.Hooks {
		var cmds []string
		collectCommands(list, &cmds)
		if len(cmds) != 1 {
			t.Fatalf("%s: %s holds %d commands, want 1: %q", path, ev, len(cmds), cmds)
		}
		out[ev] = []string{"/bin/sh", "-c", cmds[0]}
	}
	return out
}

func collectCommands(v any, into *[]string) {
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			collectCommands(x, into)
		}
	case map[string]any:
		if c, ok := v["command"].(string); ok {
			*into = append(*into, c)
		}
		collectCommands(v["hooks"], into)
	}
}

// runInstalled runs argv (an installed command line) in the work directory
// with PATH set to path and stdin, and returns the reply the agent reads.
func runInstalled(t *testing.T, e *env, argv []string, path string, stdin []byte) agents.Reply {
	t.Helper()
	c := exec.Command(argv[0], argv[1:]...)
	c.Dir = e.dir
	for _, v := range e.vars {
		if !strings.HasPrefix(v, "PATH=") {
			c.Env = append(c.Env, v)
		}
	}
	c.Env = append(c.Env, "PATH="+path)
	c.Stdin = bytes.NewReader(stdin)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Start(); err != nil {
		t.Fatalf("%q: %v", argv, err)
	}
	return agents.Reply{Exit: finish(t, c), Stdout: out.Bytes(), Stderr: errb.Bytes()}
}
