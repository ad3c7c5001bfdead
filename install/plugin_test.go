package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

var fakePackage = fstest.MapFS{
	"hermes_hooks/__init__.py":                    {Data: []byte("from .client import Client\n")},
	"hermes_hooks/client.py":                      {Data: []byte("class Client: pass\n")},
	"hermes_hooks/hermes_plugin/__init__.py":      {Data: []byte("def register(ctx): pass\n")},
	"hermes_hooks/hermes_plugin/plugin.yaml":      {Data: []byte("name: hermes-hooks\n")},
	"hermes_hooks/hermes_plugin/notes/extra.yaml": {Data: []byte("x: 1\n")},
}

// TestHermesPluginInstall: install writes the plugin (shim, manifest,
// vendored package), a second install changes nothing, an older file is
// replaced with a backup, and uninstall takes out exactly what install
// wrote — another plugin beside it stays.
func TestHermesPluginInstall(t *testing.T) {
	home := t.TempDir()
	other := filepath.Join(home, "plugins", "other", "plugin.yaml")
	if err := os.MkdirAll(filepath.Dir(other), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(other, []byte("name: other\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	apply := func(uninstall bool) *PluginPlan {
		t.Helper()
		p, err := MakeHermesPlugin(home, fakePackage, uninstall)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Apply(); err != nil {
			t.Fatal(err)
		}
		return p
	}
	p := apply(false)
	dir := filepath.Join(home, "plugins", "hermes-hooks")
	for _, f := range []string{"__init__.py", "plugin.yaml", "vendor/hermes_hooks/client.py", "vendor/hermes_hooks/hermes_plugin/notes/extra.yaml"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	if !p.Changed || !strings.Contains(p.Diff(), "+++ "+filepath.Join(dir, "plugin.yaml")) {
		t.Fatalf("first install: changed=%v\n%s", p.Changed, p.Diff())
	}
	if p := apply(false); p.Changed {
		t.Fatal("a second install changed something")
	}
	// An older client file is replaced, and kept as a backup.
	client := filepath.Join(dir, "vendor", "hermes_hooks", "client.py")
	if err := os.WriteFile(client, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if p := apply(false); !p.Changed {
		t.Fatal("an outdated file was not replaced")
	}
	if b, _ := os.ReadFile(client + BackupSuffix); string(b) != "old\n" {
		t.Fatalf("backup = %q", b)
	}
	os.Remove(client + BackupSuffix)
	// Byte-code caches Python leaves go with the files.
	if err := os.MkdirAll(filepath.Join(dir, "vendor", "hermes_hooks", "__pycache__"), 0o755); err != nil {
		t.Fatal(err)
	}
	apply(true)
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("uninstall left %s: %v", dir, err)
	}
	if _, err := os.Stat(other); err != nil {
		t.Fatalf("uninstall touched another plugin: %v", err)
	}
}
