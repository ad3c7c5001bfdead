package hookconfig

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestRunByReadsAgentConfigOnlyForItsEntries: the user's Codex config
// (its project_root_markers say which .codex/hooks.json Codex reads
// itself) is read by a load that holds an entry of a Codex hook file,
// and by no other: most loads have none, and every agent call loads.
func TestRunByReadsAgentConfigOnlyForItsEntries(t *testing.T) {
	dir := t.TempDir()
	codexHome := filepath.Join(dir, "codexhome")
	t.Setenv("CODEX_HOME", codexHome)
	writeFile(t, filepath.Join(codexHome, "config.toml"), "project_root_markers = []\n")
	proj := filepath.Join(dir, "proj")
	writeFile(t, filepath.Join(proj, ".git", "HEAD"), "ref: refs/heads/main\n")
	writeFile(t, filepath.Join(proj, ".cursor", "hooks.json"), `{"hooks":{"beforeReadFile":[{"command":"./r.sh"}]}}`)
	writeFile(t, filepath.Join(proj, ".codex", "hooks.json"), `{"hooks":{"Stop":[{"hooks":[{"command":"./s.sh"}]}]}}`)
	cursorOnly := filepath.Join(dir, "cursor.yaml")
	writeFile(t, cursorOnly, "cursor_hooks: [proj/.cursor/hooks.json]\n")
	withCodex := filepath.Join(dir, "codex.yaml")
	writeFile(t, withCodex, "cursor_hooks: [proj/.cursor/hooks.json]\ncodex_hooks: [proj/.codex/hooks.json]\n")
	sub := filepath.Join(proj, "sub")

	cfg, err := Load(cursorOnly, LoadOptions{ProjectDir: sub, MoreProjectDirs: []string{proj}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.PlacesFiles) != 0 || len(cfg.PlacesMarkers) != 0 {
		t.Errorf("no Codex entry, yet read %q, looked for %q", cfg.PlacesFiles, cfg.PlacesMarkers)
	}

	cfg, err = Load(withCodex, LoadOptions{ProjectDir: sub})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{filepath.Join(codexHome, "config.toml")}; !slices.Equal(cfg.PlacesFiles, want) {
		t.Errorf("read %q, want %q", cfg.PlacesFiles, want)
	}
	// Markers [] make sub Codex's root: proj's file is not its own.
	for _, e := range cfg.Entries {
		if e.FileOf == "codex" && e.RunBy != "" {
			t.Errorf("%s: run by %s, which does not read it from %s", e.Source, e.RunBy, sub)
		}
	}
}
