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
)

// Issue 31 item 9: install edits a file by reading it, editing and renaming
// the result over it, so an edit made meanwhile by another writer was lost
// (30 of 200 in a red-team run). Here the writers are installs of nine
// agents at once, all into one settings file (each agent's hook file is a
// symbolic link to it, inside the project), round after round: every
// agent's entries, and the user's own setting, must survive every round.
// Each install holds a lock of its own on the file's folder and checks the
// file is unchanged just before its rename (install/commit.go).
func TestConcurrentInstallsLoseNoEdit(t *testing.T) {
	e := newEnv(t)
	proj := e.path("proj")
	shared := filepath.Join(proj, "settings.json")
	agents := map[string]string{
		"claude": ".claude/settings.json", "gemini": ".gemini/settings.json", "qwen": ".qwen/settings.json",
		"factory": ".factory/settings.json", "codex": ".codex/hooks.json", "cursor": ".cursor/hooks.json",
		"windsurf": ".windsurf/hooks.json", "kiro": ".kiro/agents/default.json", "copilot": ".github/hooks/hermes-hooks.json",
	}
	for _, rel := range agents {
		link := filepath.Join(proj, rel)
		if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(shared, link); err != nil {
			t.Fatal(err)
		}
	}
	const rounds = 5
	for round := 1; round <= rounds; round++ {
		if err := os.WriteFile(shared, []byte(`{"theme": "dark"}`+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		type run struct {
			agent string
			cmd   *exec.Cmd
			out   bytes.Buffer
		}
		var runs []*run
		for agent := range agents {
			r := &run{agent: agent, cmd: e.cmd("", "install", agent, "--project", proj)}
			r.cmd.Stdout, r.cmd.Stderr = &r.out, &r.out
			if err := r.cmd.Start(); err != nil {
				t.Fatal(err)
			}
			runs = append(runs, r)
		}
		for _, r := range runs {
			if err := r.cmd.Wait(); err != nil {
				t.Errorf("round %d: install %s: %v\n%s", round, r.agent, err, r.out.String())
			}
		}
		data, err := os.ReadFile(shared)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(data, &doc); err != nil {
			t.Fatalf("round %d: the settings file is not JSON any more: %v\n%s", round, err, data)
		}
		var lost []string
		for agent := range agents {
			if !strings.Contains(string(data), " hook "+agent+" ") {
				lost = append(lost, agent)
			}
		}
		if doc["theme"] != "dark" {
			lost = append(lost, "the user's theme")
		}
		if len(lost) > 0 {
			t.Fatalf("round %d: %d concurrent installs into one file lost the edits of %s", round, len(agents), strings.Join(lost, ", "))
		}
	}
}
