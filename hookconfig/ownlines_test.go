package hookconfig

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// TestOwnLinesSetApart: an agent's hook file's lines in the form install
// writes are never hooks of the config (dispatching them would run every
// hook again), but they are kept, with their file, event and scope, in
// Config.OwnLines: whether such a line runs this hermes-hooks is for list
// and validate to say (report.ForeignLines), since a repository can write
// any program in that form. ParseAgentFile, which a host may load hooks
// with, still gives none of them.
func TestOwnLinesSetApart(t *testing.T) {
	dir := t.TempDir()
	claude, _ := agents.Lookup("claude")
	q, _ := json.Marshal(claude.HookCommand("", "PreToolUse"))
	settings := `{"hooks": {"PreToolUse": [{"hooks": [
		{"type": "command", "command": ` + string(q) + `},
		{"type": "command", "command": "'/bin/sh' hook claude PreToolUse"},
		{"type": "command", "command": "./guard.sh"}]}]}}`
	// A script of Cline's folder is named after its event. On Windows
	// Cline runs only PreToolUse.ps1 through PowerShell (agents.DirRule),
	// and install writes none: there it is skipped, no line of ours.
	script := "repo/.clinerules/hooks/PreToolUse"
	folderOwn := 1
	if runtime.GOOS == "windows" {
		folderOwn = 0
	}
	writeFiles(t, dir, map[string]string{
		"repo/.git/HEAD":             "ref: refs/heads/main\n",
		"repo/.claude/settings.json": settings,
		script:                       string(agents.Script("'/bin/sh' hook cline PreToolUse")),
		"repo/.hermes/hooks.yaml":    "claude_settings: [.claude/settings.json]\n",
		"home/config.yaml":           "",
	})
	if err := os.Chmod(filepath.Join(dir, script), 0o755); err != nil {
		t.Fatal(err)
	}
	repo := filepath.Join(dir, "repo")
	for _, tc := range []struct {
		name string
		opts LoadOptions
		own  int
	}{
		{"named on the command line", LoadOptions{AgentFiles: AgentFiles{"claude": {filepath.Join(repo, ".claude/settings.json")}}}, 2},
		{"named by the repository", LoadOptions{ProjectDir: repo}, 2},
		{"a folder of scripts", LoadOptions{AgentFiles: AgentFiles{"cline": {filepath.Join(repo, ".clinerules/hooks")}}}, folderOwn},
	} {
		cfg, err := Load(filepath.Join(dir, "home/config.yaml"), tc.opts)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, e := range cfg.Entries {
			if agents.IsOwnCommand(e.Text(), "") {
				t.Errorf("%s: a line of ours is a hook: %q", tc.name, e.Text())
			}
		}
		if len(cfg.OwnLines) != tc.own {
			t.Fatalf("%s: %d own lines, want %d: %+v", tc.name, len(cfg.OwnLines), tc.own, cfg.OwnLines)
		}
		for _, e := range cfg.OwnLines {
			if e.Scope.Project != repo || e.FileOf == "" || e.DeclaredAs != "PreToolUse" || e.Source == "" {
				t.Errorf("%s: own line %q: scope %+v, file of %q, event %q, source %q", tc.name, e.Text(), e.Scope, e.FileOf, e.DeclaredAs, e.Source)
			}
		}
	}
	entries, _, err := ParseAgentFile("claude", []byte(settings), filepath.Join(repo, ".claude/settings.json"))
	if err != nil || len(entries) != 1 || entries[0].Text() != "./guard.sh" {
		t.Fatalf("ParseAgentFile: %v, %d entries", err, len(entries))
	}
}
