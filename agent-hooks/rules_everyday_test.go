package agenthooks_test

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// TestReadyRulesLetEverydayWorkThrough: each attack review adds forms to
// the ready-made rules, and each form can catch what people run every
// day (ssh -T git@github.com once did). A rule set that refuses a
// project's git, npm, go, docker or ssh gets switched off, which guards
// nothing. So the five files together, as a user loads them, must let
// through every line of testdata/everyday-commands.txt and the file
// tools' everyday calls below, and refuse the lines marked "block" (the
// files' stated policy; "refuse ": refused by a rule, or by a fail_closed
// rule that cannot read the line — a shell reading a pipe; a line in double quotes is a Go string, for a
// command of several lines). In-process, as serve decides: two hundred
// one-shots would cost this test seconds for nothing it needs.
func TestReadyRulesLetEverydayWorkThrough(t *testing.T) {
	var files []string
	for _, f := range []string{"destructive-shell", "secrets-files", "curl-pipe-shell", "force-push", "outside-project"} {
		files = append(files, filepath.Join(repoRoot, "agent-hooks", "rules", f+".yaml"))
	}
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, []byte("rules: ["+strings.Join(files, ", ")+"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := hookconfig.Load(path, hookconfig.LoadOptions{ConfigNamed: true})
	if err != nil {
		t.Fatal(err)
	}
	const cwd = "/home/me/app"
	d, err := dispatcher.New(cfg, dispatcher.Options{Gate: dispatcher.AllowAll, Cwd: cwd})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	decide := func(tool string, args map[string]any, mayFail bool) (string, string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
		defer cancel()
		o, err := d.Dispatch(ctx, "pre_tool_call", map[string]any{"tool_name": tool, "args": args, "cwd": cwd})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range o.Hooks {
			if h.Error != "" && !mayFail || h.TimedOut {
				t.Errorf("%s %v: a rule of %s failed: %s", tool, args, filepath.Base(h.Source), h.Error)
			}
		}
		return string(o.Decision), o.Message
	}

	f, err := os.Open(filepath.Join(repoRoot, "agent-hooks", "testdata", "everyday-commands.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines, blocked := 0, 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		command, want, mayFail := line, "none", false
		if c, ok := strings.CutPrefix(line, "block "); ok {
			command, want = c, "block"
			blocked++
		} else if c, ok := strings.CutPrefix(line, "refuse "); ok {
			command, want, mayFail = c, "block", true
		}
		if strings.HasPrefix(command, "\"") {
			// A line written as a Go string: a command of several lines
			// (a commit message's here-document).
			c, err := strconv.Unquote(command)
			if err != nil {
				t.Fatalf("%q: %v", command, err)
			}
			command = c
		}
		lines++
		if got, msg := decide("terminal", map[string]any{"command": command}, mayFail); got != want {
			t.Errorf("%q: %s (%s), want %s", command, got, msg, want)
		}
	}
	if lines < 150 || blocked == 0 {
		t.Fatalf("read %d commands (%d to block): the list did not load", lines, blocked)
	}

	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"read_file", map[string]any{"path": cwd + "/src/main.go"}, "none"},
		{"read_file", map[string]any{"path": "/home/me/.bashrc"}, "none"},
		{"read_file", map[string]any{"path": cwd + "/.env.example"}, "none"},
		{"read_file", map[string]any{"path": cwd + "/config/secrets.example.yaml"}, "none"},
		{"read_file", map[string]any{"path": cwd + "/src/env.ts"}, "none"},
		{"read_file", map[string]any{"path": cwd + "/docs/environment.md"}, "none"},
		{"write_file", map[string]any{"path": cwd + "/src/a.go", "content": "package a"}, "none"},
		{"write_file", map[string]any{"path": "src/components/Button.tsx", "content": "x"}, "none"},
		{"patch", map[string]any{"path": "README.md", "old_string": "a", "new_string": "b"}, "none"},
		{"search_files", map[string]any{"pattern": "TODO", "path": cwd}, "none"},
		{"search_files", map[string]any{"pattern": "password", "path": cwd + "/src"}, "none"},
		{"read_file", map[string]any{"path": cwd + "/.env"}, "block"},
		{"write_file", map[string]any{"path": "/etc/hosts", "content": "x"}, "block"},
	} {
		if got, msg := decide(c.tool, c.args, false); got != c.want {
			t.Errorf("%s %v: %s (%s), want %s", c.tool, c.args, got, msg, c.want)
		}
	}
}
