//go:build unix

package hookconfig

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"aead.dev/minisign"

	"github.com/hermes-hooks/hermes-hooks/bundle"
)

// A managed bundle's hooks run for every user, like the managed config's:
// a managed bundles directory (or a bundle in it) that another user could
// write would let that user swap in a bundle of their own (self-signed,
// with its signer.pub) and run it as everyone else. It is held to the
// managed config's ownership rule and refused, failing closed, otherwise;
// it was once loaded whatever its mode.
func TestManagedBundleWritableByOthersRefused(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the managed layer must be root's: run as root")
	}
	dir := t.TempDir()
	etc := filepath.Join(dir, "etc")
	if err := os.MkdirAll(etc, 0o755); err != nil {
		t.Fatal(err)
	}
	managed := filepath.Join(etc, "config.yaml")
	if err := os.WriteFile(managed, []byte("hooks: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(ManagedConfigEnv, managed)
	src := filepath.Join(dir, "src")
	if err := os.MkdirAll(filepath.Join(src, "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	_ = os.WriteFile(filepath.Join(src, "config.yaml"), []byte("hooks:\n  pre_tool_call:\n    - command: ./hooks/guard.sh\n      fail_closed: true\n"), 0o644)
	_ = os.WriteFile(filepath.Join(src, "hooks", "guard.sh"), []byte("#!/bin/sh\n"), 0o755)
	a, err := bundle.Pack(src, "corp", 0)
	if err != nil {
		t.Fatal(err)
	}
	pk, sk, _ := minisign.GenerateKey(rand.Reader)
	bundle.Sign(a, sk)
	root := ManagedBundleDir(managed)
	inst, err := bundle.Install(root, a, pk, bundle.InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	user := filepath.Join(dir, "user.yaml")
	load := func() *Config {
		t.Helper()
		cfg, err := Load(user, LoadOptions{BundleDirs: []string{root}, Managed: true})
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	if cfg := load(); len(cfg.Entries) != 1 || len(cfg.Unloaded) != 0 {
		t.Fatalf("root's own managed bundle: entries %d, unloaded %+v", len(cfg.Entries), cfg.Unloaded)
	}
	for _, w := range []string{root, inst, bundle.FilesDir(inst), filepath.Join(bundle.FilesDir(inst), "hooks")} {
		t.Run(filepath.Base(w), func(t *testing.T) {
			if err := os.Chmod(w, 0o777); err != nil {
				t.Fatal(err)
			}
			defer os.Chmod(w, 0o755)
			cfg := load()
			if len(cfg.Entries) != 0 || len(cfg.Unloaded) != 1 || !cfg.Unloaded[0].Bundle ||
				!strings.Contains(cfg.Unloaded[0].Err.Error(), "writable by its group or by others") {
				t.Fatalf("%s mode 0777: entries %d, unloaded %+v; want the bundle refused", w, len(cfg.Entries), cfg.Unloaded)
			}
		})
	}
}

// Before the first managed install the bundles directory, even the
// directory of the managed config, may not exist yet: the nearest one
// above that does is what is checked.
func TestCheckManagedBundleDirNotYetMade(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the managed layer must be root's: run as root")
	}
	dir := t.TempDir()
	if err := CheckManagedBundleDir(filepath.Join(dir, "etc", "hermes-hooks", "bundles")); err != nil {
		t.Errorf("a bundles directory not made yet, under root's own: %v", err)
	}
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := CheckManagedBundleDir(filepath.Join(dir, "etc", "bundles")); err == nil || !strings.Contains(err.Error(), "writable by its group or by others") {
		t.Errorf("under a directory others may write: %v", err)
	}
}
