package report

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/install"
)

// TestSwitchCheckSameFileByAnotherName: a switch file reached by two
// names (the project is the home folder, through a link) is the user's
// own, read once; and the installed file, named through that link, is
// the file whose own switch decides.
func TestSwitchCheckSameFileByAnotherName(t *testing.T) {
	home := t.TempDir()
	link := filepath.Join(t.TempDir(), "project")
	if err := os.Symlink(home, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	settings := filepath.Join(home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(settings, []byte(`{"disableAllHooks": true}`), 0o644); err != nil {
		t.Fatal(err)
	}
	claude, _ := agents.Lookup("claude")
	o := ProbeOptions{Home: home, Project: link}
	// A project install in the home folder, by the link's name: the
	// project's .claude/settings.json is the user's file, so the switch
	// is the user's own, not a repository's.
	other := filepath.Join(link, ".claude", "settings.local.json")
	c, own, _ := switchCheck(install.Installed{Agent: claude, Root: link, Path: other}, o, readTrust(claude, home))
	if c == nil || c.Project || c.File != settings || c.Setting == "" {
		t.Errorf("project install: %+v, want the user's own %s", c, settings)
	}
	if !own {
		t.Errorf("project install: not one of the switch files, want its settings.local.json among them")
	}
	// The user's install, named through the link: its own switch decides
	// (its entries' FireOff), no other file's.
	self := filepath.Join(link, ".claude", "settings.json")
	c, own, _ = switchCheck(install.Installed{Agent: claude, User: true, Path: self}, o, readTrust(claude, home))
	if c != nil || own {
		t.Errorf("user install by another name: %+v, own %v; want its own switch to decide (nil, false)", c, own)
	}
}
