package agents

import (
	"path"
	"strings"
	"testing"
)

// TestManagedPathTable holds the table of admin layers to its rules: a
// registered agent, a path per system in that system's absolute form, a
// cited source; the managed-only switch, TOML and drop-ins where the
// agents' documentation has them (docs/agent-protocols.md, "Managed
// (admin) settings").
func TestManagedPathTable(t *testing.T) {
	want := map[string]struct {
		only, dropIn string
		toml         bool
	}{
		"claude":  {only: "allowManagedHooksOnly", dropIn: "managed-settings.d"},
		"codex":   {only: "allow_managed_hooks_only", toml: true},
		"copilot": {},
		"gemini":  {},
	}
	if got := strings.Join(ManagedNames(), ","); got != "claude,codex,copilot,gemini" {
		t.Fatalf("ManagedNames() = %s", got)
	}
	for name, w := range want {
		ag, ok := Lookup(name)
		if !ok {
			t.Fatalf("%s: not a registered agent", name)
		}
		m := ag.ManagedLayer()
		if m == nil {
			t.Fatalf("%s: no managed layer", name)
		}
		for _, goos := range []string{"linux", "darwin", "windows"} {
			for _, dropIn := range []bool{false, w.dropIn != ""} {
				f := m.File(goos, dropIn)
				switch {
				case goos == "windows" && !strings.HasPrefix(f, `C:\`):
					t.Errorf("%s on windows (drop-in %v): %q is not a C:\\ path", name, dropIn, f)
				case goos != "windows" && (!path.IsAbs(f) || path.Clean(f) != f):
					t.Errorf("%s on %s (drop-in %v): %q is not a clean absolute path", name, goos, dropIn, f)
				}
				if dropIn && !strings.Contains(f, w.dropIn) {
					t.Errorf("%s on %s: drop-in file %q is not in %s", name, goos, f, w.dropIn)
				}
			}
		}
		if m.OnlyKey != w.only || m.TOML != w.toml || m.Source == "" {
			t.Errorf("%s: OnlyKey %q TOML %v Source %q; want %q %v and a source", name, m.OnlyKey, m.TOML, m.Source, w.only, w.toml)
		}
		if w.dropIn == "" && m.File("linux", true) != "" {
			t.Errorf("%s: a drop-in file where the agent has no drop-in folder", name)
		}
	}
	if ag, _ := Lookup("cursor"); ag.ManagedLayer() != nil {
		t.Error("cursor: a managed layer install does not know of")
	}
}

func TestRooted(t *testing.T) {
	for _, c := range []struct{ root, goos, file, want string }{
		{"", "linux", "/etc/codex/requirements.toml", "/etc/codex/requirements.toml"},
		{"/", "linux", "/etc/codex/requirements.toml", "/etc/codex/requirements.toml"},
		{"/tmp/r", "linux", "/etc/codex/requirements.toml", "/tmp/r/etc/codex/requirements.toml"},
		{"/tmp/r/", "darwin", "/Library/Application Support/ClaudeCode/managed-settings.json", "/tmp/r/Library/Application Support/ClaudeCode/managed-settings.json"},
		{"/tmp/r", "windows", `C:\Program Files\ClaudeCode\managed-settings.json`, "/tmp/r/C/Program Files/ClaudeCode/managed-settings.json"},
		{"/tmp/r", "linux", "", ""},
	} {
		if got := Rooted(c.root, c.goos, c.file); got != c.want {
			t.Errorf("Rooted(%q, %s, %q) = %q, want %q", c.root, c.goos, c.file, got, c.want)
		}
	}
}
