package repoenv

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// check writes file (relative to a fresh project folder) and runs a hook
// call's Check of agent there, the environment env.
func check(t *testing.T, agent, file, content string, env map[string]string) []Finding {
	t.Helper()
	dir := t.TempDir()
	p := filepath.Join(dir, filepath.FromSlash(file))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	a, _ := agents.Lookup(agent)
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	var home func() string
	if a.RepoEnvReplaces() {
		home = func() string { return "/nonexistent-home" }
	}
	active := Active(lookup, home)
	return Check(a, []string{dir}, "/nonexistent-home", InEnv(active, lookup), active)
}

// Files the agent reads as setting a control that a Go reading of them
// took for setting none, or another value (an attacker's re-read of
// h-env): each must count.
func TestCheckSpellings(t *testing.T) {
	safe := map[string]string{SafeMode: "1"}
	for _, c := range []struct {
		agent, file, content string
		env                  map[string]string
	}{
		// JavaScript's whitespace and line starts (dotenv's \s, trim, ^).
		{"gemini", ".env", "\u00a0HERMES_SAFE_MODE=1\n", safe},
		{"gemini", ".env", "HERMES_SAFE_MODE\u00a0=1\n", safe},
		{"gemini", ".env", "\vHERMES_SAFE_MODE=1\n", safe},
		{"gemini", ".env", "A=1\u2028HERMES_SAFE_MODE=1\n", safe},
		{"gemini", ".env", "HERMES_SAFE_MODE=\ufeff1\n", safe},
		{"qwen", ".env", "\u3000HERMES_SAFE_MODE=1\n", safe},
		// Claude Code makes any JSON value a string its own way.
		{"claude", ".claude/settings.json", `{"env":{"HERMES_SAFE_MODE":1.0}}`, safe},
		{"claude", ".claude/settings.json", `{"env":{"HERMES_SAFE_MODE":["1"]}}`, safe},
		// encoding/json matched "ENV" to the env field.
		{"claude", ".claude/settings.json", `{"env":{"HERMES_SAFE_MODE":"1"},"ENV":null}`, safe},
		{"claude", ".claude/settings.local.json", "\ufeff{\"env\":{\"HERMES_SAFE_\\u004dODE\":\"1\"}}", safe},
		{"qwen", ".qwen/settings.json", "// c\n{\"env\":{\"HERMES_SAFE_\\u004dODE\":\"1\"}}", safe},
		{"qwen", ".qwen/settings.json", `{"env":{"HERMES_SAFE_MODE":"1"},"ENV":null}`, safe},
		// Qwen Code expands variables in its settings' strings.
		{"qwen", ".qwen/settings.json", `{"env":{"HERMES_HOME":"$PWD/.qh"}}`, map[string]string{Home: os.Getenv("PWD") + "/.qh"}},
	} {
		if runtime.GOOS == "windows" && strings.Contains(c.content, "$PWD") {
			continue // no shell has set PWD for this test there
		}
		if got := check(t, c.agent, c.file, c.content, c.env); len(got) == 0 || got[0].Err != nil {
			t.Errorf("%s %s %q: %v, want the control found", c.agent, c.file, c.content, got)
		}
	}
}

// An empty HERMES_HOME or managed config in a file that only fills unset
// variables leaves them unset (hermeshome.Dir and ManagedExtra read ""
// as none): nothing to refuse. Claude Code's settings replace a value the
// user set: there it counts.
func TestCheckEmptyFill(t *testing.T) {
	for _, c := range []struct {
		agent, file, content string
		env                  map[string]string
		want                 bool
	}{
		{"gemini", ".env", "HERMES_HOME=\n", map[string]string{Home: ""}, false},
		{"gemini", ".env", "HERMES_HOOKS_MANAGED_CONFIG=\n", map[string]string{Managed: ""}, false},
		{"qwen", ".qwen/settings.json", `{"env":{"HERMES_HOME":""}}`, map[string]string{Home: ""}, false},
		{"claude", ".claude/settings.json", `{"env":{"HERMES_HOME":""}}`, map[string]string{Home: ""}, true},
	} {
		if got := check(t, c.agent, c.file, c.content, c.env); (len(got) > 0) != c.want {
			t.Errorf("%s %q: %v, want a finding: %v", c.agent, c.content, got, c.want)
		}
	}
}

// With no home in the account database, $HOME cannot be checked against
// it: HOME counts while HERMES_HOME is unset.
func TestActiveNoAccountHome(t *testing.T) {
	lookup := func(k string) (string, bool) { return map[string]string{HomeVar: "/home/u"}[k], k == HomeVar }
	if got := Active(lookup, func() string { return "" }); !reflect.DeepEqual(got, []string{HomeVar}) {
		t.Errorf("Active = %v, want [%s]", got, HomeVar)
	}
}

// A home folder reached through a link: its files are the user's own by
// its real path too (Check adds each folder's real path).
func TestCheckLinkedHome(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	if err := os.MkdirAll(filepath.Join(real, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(real, ".claude/settings.json"), []byte(`{"env":{"HERMES_SAFE_MODE":"1"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	claude, _ := agents.Lookup("claude")
	if got := Check(claude, []string{link}, link, AnySet, Controls); len(got) != 0 {
		t.Errorf("the user's own file through a linked home: %v", got)
	}
}

// The home folder reached through a linked parent (/home a link to
// /var/home; $PWD through a link) is still the home: its ~/.env is the
// user's own, not a repository's (an attacker's re-read: refused, naming
// …/lnkp/u/.env).
func TestCheckHomeThroughALinkedParent(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "realp", "u")
	if err := os.MkdirAll(filepath.Join(home, "proj"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".env"), []byte("HERMES_SAFE_MODE=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(base, "realp"), filepath.Join(base, "lnkp")); err != nil {
		t.Skip(err)
	}
	gemini, _ := agents.Lookup("gemini")
	dir := filepath.Join(base, "lnkp", "u", "proj")
	if got := Check(gemini, []string{dir}, home, AnySet, Controls); len(got) != 0 {
		t.Errorf("the user's own ~/.env, the home reached through a linked parent: %v", got)
	}
}
