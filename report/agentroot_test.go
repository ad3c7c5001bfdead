package report

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// TestAgentRoot: the root Codex takes from where it runs, by the user's
// project_root_markers; where it starts for an agent that reads the
// folder it starts in only (Claude Code); the project for the others.
func TestAgentRoot(t *testing.T) {
	base := t.TempDir()
	for _, d := range []string{"p/.git", "p/a/b/c", "p/a/.hg"} {
		if err := os.MkdirAll(filepath.Join(base, filepath.FromSlash(d)), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(base, "p", "a", "b", "pkg.json"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	codex, _ := agents.Lookup("codex")
	claude, _ := agents.Lookup("claude")
	copilot, _ := agents.Lookup("copilot")
	p := filepath.Join(base, "p")
	at := func(rel string) string { return filepath.Join(p, filepath.FromSlash(rel)) }
	for _, tc := range []struct {
		name   string
		a      *agents.Agent
		config string
		wd     string
		want   string
	}{
		{"default .git", codex, "", at("a/b/c"), p},
		{"empty list", codex, "project_root_markers = []\n", at("a/b/c"), at("a/b/c")},
		{"a file marker", codex, "project_root_markers = [\"pkg.json\"]\n", at("a/b/c"), at("a/b")},
		{"first found nearest", codex, "project_root_markers = [\".git\", \".hg\"]\n", at("a/b/c"), at("a")},
		{"none found", codex, "project_root_markers = [\"nothing-here\"]\n", at("a/b/c"), at("a/b/c")},
		{"absolute marker", codex, "project_root_markers = [" + quote(at("a/.hg")) + "]\n", at("a/b/c"), at("a/b/c")},
		{"not strings", codex, "project_root_markers = [1]\n", at("a/b/c"), p},
		{"claude: where it starts", claude, "project_root_markers = []\n", at("a/b/c"), at("a/b/c")},
		{"claude: where it starts, unknown", claude, "", "", p},
		{"copilot: the project", copilot, "project_root_markers = []\n", at("a/b/c"), p},
	} {
		if got := agentRoot(tc.a, tc.a.Parse([]byte(tc.config)), p, tc.wd); got != tc.want {
			t.Errorf("%s: root %q, want %q", tc.name, got, tc.want)
		}
	}
}

func quote(s string) string { return "'" + s + "'" }
