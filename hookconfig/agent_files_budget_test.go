package hookconfig

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// The agent hook files a repository names declare MaxProjectEntries hooks
// together, not each: within their shared bytes, 150 Cursor files of 256
// hooks each brought 38,000 of a repository's entries into every dispatch
// (1.4 s, nothing approved). The file that passes the cap is refused, and
// those after it are not read, as for the shared bytes; the ones before it
// stay.
func TestProjectAgentFilesShareOneEntryCap(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	files := map[string]string{"repo/.git/HEAD": "ref: refs/heads/main\n", "home/config.yaml": ""}
	var names []string
	for i := range 8 {
		var hooks []string
		for j := range 40 {
			hooks = append(hooks, fmt.Sprintf(`{"command":"./k%d-%d.sh"}`, i, j))
		}
		name := fmt.Sprintf("c/h%d.json", i)
		names = append(names, name)
		files["repo/"+name] = `{"version":1,"hooks":{"preToolUse":[` + strings.Join(hooks, ",") + `]}}`
	}
	files["repo/.hermes/hooks.yaml"] = "cursor_hooks: [" + strings.Join(names, ", ") + "]\n"
	writeFiles(t, dir, files)
	cfg, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo})
	if err != nil {
		t.Fatal(err)
	}
	// 6 files of 40 are 240; the 7th passes the cap.
	if len(cfg.Unloaded) != 1 || len(cfg.Listed) != 240 {
		t.Fatalf("unloaded %+v, listed %d: 8 files of 40 hooks pass the cap together", cfg.Unloaded, len(cfg.Listed))
	}
	if msg := cfg.Unloaded[0].Err.Error(); !strings.Contains(msg, filepath.Join(repo, "c", "h6.json")) ||
		!strings.Contains(msg, "may declare 256 hooks together") || !strings.Contains(msg, "(240 before it)") {
		t.Errorf("the error names the file that passed the cap, and why: %s", msg)
	}
	if n := len(cfg.AgentFiles["cursor"]); n != 6 {
		t.Errorf("agent files read: %d, want 6 (%v)", n, cfg.AgentFiles)
	}
}
