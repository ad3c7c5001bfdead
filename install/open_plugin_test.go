package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

func TestOpenPluginRoundTrip(t *testing.T) {
	claude, _ := agents.Lookup("claude")
	root := t.TempDir()
	dir := filepath.Join(root, ".agents", "plugins", "hermes-hooks")
	p, err := MakeOpenPlugin(dir, claude, HookCommand(claude, bin), false)
	if err != nil || !p.Changed {
		t.Fatalf("MakeOpenPlugin: changed=%v err=%v", p != nil && p.Changed, err)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	manifest := readFile(t, filepath.Join(dir, "plugin.json"))
	if want := "{\n  \"$schema\": \"https://agent-plugins.org/schemas/1.0.0/plugin.schema.json\",\n  \"name\": \"hermes-hooks\",\n"; !strings.HasPrefix(manifest, want) {
		t.Errorf("plugin.json =\n%s\nwant it to start with\n%s", manifest, want)
	}
	hooks := readFile(t, filepath.Join(dir, "hooks", "hooks.json"))
	// Claude Code's grouped shape, for the Open Plugins events Claude
	// Code's install registers, in the format's order; none other.
	for _, ev := range []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "SessionStart", "SessionEnd", "UserPromptSubmit", "Stop", "SubagentStart", "SubagentStop"} {
		// What install writes: this binary's path (the test's --absolute
		// form), then hook claude EVENT and the agent's deadline.
		if !strings.Contains(hooks, `"command": `+string(pyjson.Encode(HookCommand(claude, bin)(ev), pyjson.Compact))) {
			t.Errorf("hooks.json lacks %s:\n%s", ev, hooks)
		}
	}
	for _, ev := range []string{"PermissionRequest", "PreCompact", "Notification"} {
		if strings.Contains(hooks, ev) {
			t.Errorf("hooks.json has %s, no Open Plugins event:\n%s", ev, hooks)
		}
	}
	if !strings.HasPrefix(hooks, "{\n  \"hooks\": {\n    \"PreToolUse\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",") {
		t.Errorf("hooks.json is not in the grouped shape:\n%s", hooks)
	}
	// Again: nothing changes.
	if p, err = MakeOpenPlugin(dir, claude, HookCommand(claude, bin), false); err != nil || p.Changed {
		t.Fatalf("second install: changed=%v err=%v", p != nil && p.Changed, err)
	}
	// A file of the user's beside ours stays; ours go, and the folders
	// left empty with them.
	other := filepath.Join(root, ".agents", "plugins", "mine", "plugin.json")
	mkdir(t, filepath.Dir(other))
	writeFile(t, other, `{"name": "mine"}`)
	if p, err = MakeOpenPlugin(dir, claude, HookCommand(claude, bin), true); err != nil || !p.Changed {
		t.Fatalf("uninstall: changed=%v err=%v", p != nil && p.Changed, err)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("uninstall left %s: %v", dir, err)
	}
	if readFile(t, other) != `{"name": "mine"}` {
		t.Error("uninstall touched another plugin")
	}
	if p, err = MakeOpenPlugin(dir, claude, HookCommand(claude, bin), true); err != nil || p.Changed {
		t.Fatalf("second uninstall: changed=%v err=%v", p != nil && p.Changed, err)
	}
}

// TestOpenPluginLeavesOthersAlone: a plugin folder holding someone else's
// manifest or hooks is neither written nor removed.
func TestOpenPluginLeavesOthersAlone(t *testing.T) {
	claude, _ := agents.Lookup("claude")
	for _, tc := range []struct{ file, content string }{
		{"plugin.json", `{"name": "formatter", "version": "1.0.0"}`},
		{"plugin.json", `not json`},
		{"hooks/hooks.json", `{"hooks": {"PostToolUse": [{"hooks": [{"type": "command", "command": "./fmt.sh"}]}]}}`},
		{"hooks/hooks.json", `{"hooks": {}}`},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, filepath.FromSlash(tc.file))
		mkdir(t, filepath.Dir(path))
		writeFile(t, path, tc.content)
		for _, uninstall := range []bool{false, true} {
			_, err := MakeOpenPlugin(dir, claude, HookCommand(claude, bin), uninstall)
			if err == nil || !strings.Contains(err.Error(), "not one hermes-hooks wrote") {
				t.Errorf("%s %q uninstall=%v: err = %v", tc.file, tc.content, uninstall, err)
			}
		}
		if readFile(t, path) != tc.content {
			t.Errorf("%s changed", tc.file)
		}
	}
}

func TestOpenPluginNeedsGroupedEvents(t *testing.T) {
	for _, name := range []string{"cursor", "kiro"} {
		a, _ := agents.Lookup(name)
		if _, err := MakeOpenPlugin(t.TempDir(), a, command(name), false); err == nil || !strings.Contains(err.Error(), "no Open Plugins hook event") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

// FuzzOpenPluginOwnership: reading any file as ours or not never panics,
// and a hooks.json without a single command of ours is never ours.
func FuzzOpenPluginOwnership(f *testing.F) {
	f.Add([]byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "'/b/hermes-hooks' hook claude Stop"}]}]}}`))
	f.Add([]byte(`{"hooks": {"Stop": [{"hooks": [{"command": 7}]}]}}`))
	f.Add([]byte(`{"name": "hermes-hooks"}`))
	f.Add([]byte(`[{"command": "x"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ownManifest(data)
		if ownHooks(data) && !strings.Contains(string(data), "hook") {
			t.Fatalf("%q read as ours", data)
		}
	})
}
