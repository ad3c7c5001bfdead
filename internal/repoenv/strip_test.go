//go:build unix

package repoenv

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// TestStrips: the files are read as Gemini CLI reads them for what it
// strips: an absent file or a folder in its place is empty to it; a FIFO
// a repository puts there is not read (no hang) and what it strips cannot
// be told; a project's file that blocks HERMES_HOME is named as the one
// that decides.
func TestStrips(t *testing.T) {
	gemini, _ := agents.Lookup("gemini")
	dir := t.TempDir()
	home, ws := filepath.Join(dir, "home"), filepath.Join(dir, "ws")
	settings := filepath.Join(ws, ".gemini", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GEMINI_CLI_SYSTEM_SETTINGS_PATH": filepath.Join(dir, "sys", "settings.json")}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	names := []string{Home}
	strips := func() Strip { return Strips(gemini, home, ws, names, map[string]string{Home: "/h"}, lookup) }

	if s := strips(); s.Err != nil || len(s.Stripped) != 0 || len(s.Files) != 4 {
		t.Fatalf("no files: %+v", s)
	}
	if err := os.Mkdir(settings, 0o755); err != nil {
		t.Fatal(err)
	}
	if s := strips(); s.Err != nil || len(s.Stripped) != 0 {
		t.Errorf("a folder in its place: %+v", s)
	}
	if err := os.Remove(settings); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(settings, 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	if s := strips(); s.Err == nil || s.ErrFile != settings {
		t.Errorf("a FIFO: %+v, want it named as unreadable", s)
	}
	if err := os.Remove(settings); err != nil {
		t.Fatal(err)
	}
	data := `{"security": {"environmentVariableRedaction": {"enabled": true, "blocked": ["HERMES_HOME"]}}}`
	if err := os.WriteFile(settings, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	s := strips()
	if s.Err != nil || len(s.Stripped) != 1 || !s.Stripped[0].ByProject || s.Files[s.Stripped[0].File].Path != filepath.ToSlash(settings) || len(s.Fixes) != 1 {
		t.Errorf("a project's block: %+v", s)
	}
}
