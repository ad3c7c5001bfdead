//go:build unix

package bundle

import (
	"crypto/rand"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"aead.dev/minisign"
)

// A managed bundle is installed by root and read by every user's
// dispatch: its directories must be readable by all, whatever root's
// umask (a hardened 077 is common). The unpacked directory was once left
// 0700 (os.MkdirTemp's mode), so no other user could read its fragment and
// every one of their tool calls was refused.
func TestInstallReadableByEveryone(t *testing.T) {
	old := syscall.Umask(0o077)
	defer syscall.Umask(old)
	pk, sk, _ := minisign.GenerateKey(rand.Reader)
	root := filepath.Join(t.TempDir(), "bundles")
	a := signedPack(t, "corp", map[string]string{"config.yaml": "hooks: {}\n", "hooks/deep/a.sh": "x"}, sk)
	dir, err := Install(root, a, pk, InstallOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		if !d.IsDir() || d.Name() == ".lock" {
			return nil
		}
		if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: mode %04o, want 0755 (readable by every user, writable by the installer only)", p, fi.Mode().Perm())
		}
		return nil
	})
	if fi, _ := os.Stat(filepath.Join(FilesDir(dir), "hooks/deep/a.sh")); fi.Mode().Perm() != 0o444 {
		t.Errorf("a.sh: mode %04o", fi.Mode().Perm())
	}
}

// bundle list shows a link in a bundles directory (which the config
// loader refuses, failing closed) as an error, not nothing.
func TestListReportsLink(t *testing.T) {
	root := t.TempDir()
	if err := os.Symlink(t.TempDir(), filepath.Join(root, "corp")); err != nil {
		t.Fatal(err)
	}
	if list, errs := List(root); len(list) != 0 || len(errs) != 1 {
		t.Fatalf("a linked bundle: %d listed, errors %v; want one error", len(list), errs)
	}
}
