package install

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The shim carries its mark on its first line and the binary's path as a
// JS string literal, whatever the path holds.
func TestOpenCodePluginFillsInThePath(t *testing.T) {
	data := OpenCodePlugin(`/opt/my "tools"/hermes-hooks`)
	if !IsOwnOpenCodePlugin(data) {
		t.Fatalf("the shim does not carry its mark:\n%s", data)
	}
	if !bytes.Contains(data, []byte(`const BIN = "/opt/my \"tools\"/hermes-hooks";`)) {
		t.Errorf("the path is not filled in as a string literal:\n%s", data)
	}
	if bytes.Contains(data, []byte("__HERMES_HOOKS_BIN__")) {
		t.Error("the placeholder is left in the shim")
	}
	if n := bytes.Count(data, []byte("\n")); n > 100 {
		t.Errorf("the shim is %d lines; it is meant to stay small (≤ 100)", n)
	}
}

func applyOpenCode(t *testing.T, path, exe string, uninstall bool) *PluginPlan {
	t.Helper()
	plan, err := MakeOpenCode(path, exe, uninstall)
	if err != nil {
		t.Fatal(err)
	}
	if err := plan.Apply(); err != nil {
		t.Fatal(err)
	}
	return plan
}

// Install writes the file, a second install changes nothing, a new binary
// path rewrites it, and uninstall removes it and the folders it made.
func TestMakeOpenCodeRoundTrip(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, filepath.FromSlash(OpenCodePluginFile))
	if p := applyOpenCode(t, path, "/bin/hh", false); !p.Changed {
		t.Fatal("install on nothing changed nothing")
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, OpenCodePlugin("/bin/hh")) {
		t.Fatalf("written %q (%v), want the shim", got, err)
	}
	if p := applyOpenCode(t, path, "/bin/hh", false); p.Changed {
		t.Error("a second install changed the file")
	}
	if p := applyOpenCode(t, path, "/usr/bin/hh", false); !p.Changed {
		t.Error("install with another binary left the old path")
	}
	if p := applyOpenCode(t, path, "/usr/bin/hh", true); !p.Changed {
		t.Error("uninstall changed nothing")
	}
	if _, err := os.Stat(filepath.Join(root, ".opencode")); !os.IsNotExist(err) {
		t.Errorf(".opencode left behind after uninstall (%v)", err)
	}
	if p := applyOpenCode(t, path, "/usr/bin/hh", true); p.Changed {
		t.Error("a second uninstall changed something")
	}
}

// A file of the plugin's name that install did not write is the user's:
// install and uninstall refuse it, and it keeps its bytes.
func TestMakeOpenCodeRefusesTheUsersFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hermes-hooks.js")
	mine := []byte("// my own plugin\nexport const Mine = async () => ({});\n")
	if err := os.WriteFile(path, mine, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, uninstall := range []bool{false, true} {
		_, err := MakeOpenCode(path, "/bin/hh", uninstall)
		if err == nil || !strings.Contains(err.Error(), "not one hermes-hooks wrote") {
			t.Errorf("uninstall=%v: err = %v, want a refusal", uninstall, err)
		}
	}
	if got, _ := os.ReadFile(path); !bytes.Equal(got, mine) {
		t.Errorf("the user's file changed: %q", got)
	}
}

// --dry-run's diff names the file and writes nothing.
func TestMakeOpenCodeDiff(t *testing.T) {
	path := filepath.Join(t.TempDir(), "plugins", "hermes-hooks.js")
	plan, err := MakeOpenCode(path, "/bin/hh", false)
	if err != nil {
		t.Fatal(err)
	}
	if d := plan.Diff(); !strings.Contains(d, "+++ "+path) || !strings.Contains(d, `+const BIN = "/bin/hh";`) {
		t.Errorf("diff:\n%s", d)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("planning wrote the file (%v)", err)
	}
}
