package agents

import (
	"slices"
	"testing"
)

// TestPlacesEnvNamesEveryVariableAsked: every variable LoadsItself or
// TrustFile asks the environment for is in PlacesEnv, the list a hook
// call states when it forwards to serve. A variable left out would let a
// serve started with another value tell the agent's own files apart by
// its own, and leave a guard to an agent that does not read it.
func TestPlacesEnvNamesEveryVariableAsked(t *testing.T) {
	listed := PlacesEnv()
	if len(listed) == 0 {
		t.Fatal("PlacesEnv lists no variable; CODEX_HOME at least moves Codex's files")
	}
	asked := map[string]bool{}
	getenv := func(name string) string {
		asked[name] = true
		return "/moved/" + name
	}
	files := []string{
		"/home/u/.codex/hooks.json", "/home/u/.qwen/settings.json", "/home/u/.copilot/hooks/h.json",
		"/home/u/.gemini/settings.json", "/etc/gemini-cli/settings.json", "/etc/claude-code/managed-settings.json",
		"/p/.claude/settings.json", "/p/.cursor/hooks.json", "/p/.windsurf/hooks.json", "/p/.factory/settings.json",
	}
	for _, a := range All() {
		at := Places{Home: "/home/u", Start: []string{"/p/sub"}, Roots: []string{"/p"}, Env: getenv}
		for _, f := range files {
			a.LoadsItself(f, at)
		}
		a.TrustFile("/home/u", getenv)
	}
	for name := range asked {
		if !slices.Contains(listed, name) {
			t.Errorf("%s is read to place an agent's files, but PlacesEnv (%v) does not list it", name, listed)
		}
	}
	if !asked["CODEX_HOME"] {
		t.Errorf("no agent asked for CODEX_HOME: the test's files no longer reach the variables (asked: %v)", asked)
	}
}
