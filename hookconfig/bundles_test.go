package hookconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A bundles directory that exists but cannot be listed hides every bundle
// installed in it: its guards are lost as surely as an unreadable
// fragment's, so it refuses what they gate. It was once a warning only,
// and a managed layer's guards went silently (a root umask of 077 makes
// the directory bundle install creates unreadable to every other user).
func TestUnreadableBundlesDirFailsClosed(t *testing.T) {
	root := filepath.Join(t.TempDir(), "bundles")
	// A file where the directory should be: unreadable as a directory
	// for any user, root included.
	if err := os.WriteFile(root, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := emptyConfig()
	cfg.addBundles([]string{root, filepath.Join(t.TempDir(), "missing")}, nil)
	if len(cfg.Unloaded) != 1 || !cfg.Unloaded[0].Bundle || !strings.Contains(cfg.Unloaded[0].Err.Error(), root) {
		t.Fatalf("unreadable bundles directory: Unloaded = %+v, want one bundle refusal naming %s", cfg.Unloaded, root)
	}
}

// allow_managed_hooks_only keeps the managed layer's bundles, so a managed
// bundle that cannot be loaded must keep refusing what its guards gate: it
// once went with the repositories' unloaded files (cfg.Unloaded = nil), and
// the managed guards were dropped silently. A user-layer bundle is not
// loaded under the switch, so its failure refuses nothing.
func TestManagedOnlyKeepsManagedBundleRefusal(t *testing.T) {
	sys := filepath.Join(t.TempDir(), "etc", "config.yaml")
	managedRoot := ManagedBundleDir(sys)
	userRoot := filepath.Join(t.TempDir(), "bundles")
	for _, r := range []string{managedRoot, userRoot} {
		// Installed, but its fragment is gone.
		if err := os.MkdirAll(filepath.Join(r, "corp", "files"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := emptyConfig()
	cfg.addBundles([]string{managedRoot, userRoot}, nil)
	if len(cfg.Unloaded) != 2 {
		t.Fatalf("Unloaded before the merge = %+v", cfg.Unloaded)
	}
	cfg.mergeManaged(emptyConfig(), ManagedLayer{Files: []string{sys}, AllowManagedHooksOnly: true})
	if len(cfg.Unloaded) != 1 || !cfg.Unloaded[0].Bundle || !strings.Contains(cfg.Unloaded[0].Err.Error(), managedRoot) {
		t.Fatalf("allow_managed_hooks_only: Unloaded = %+v, want the managed bundle's refusal only", cfg.Unloaded)
	}
}

// A bundle in a bundles directory is a directory bundle install made. A
// symbolic link there (say, a deployment that links a bundle in from
// elsewhere) was skipped without a word, so the guards it was meant to
// add silently did not run: it is refused instead, failing closed, and not
// followed (where it leads is nobody's signed install).
func TestBundleLinkRefused(t *testing.T) {
	dir := t.TempDir()
	elsewhere := filepath.Join(dir, "elsewhere", "corp")
	if err := os.MkdirAll(filepath.Join(elsewhere, "files"), 0o755); err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(dir, "bundles")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(root, "corp")); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	if fi, err := os.Lstat(filepath.Join(root, "corp")); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Skip("this system does not report the link as one (Wine)")
	}
	cfg := emptyConfig()
	cfg.addBundles([]string{root}, nil)
	if len(cfg.Unloaded) != 1 || !cfg.Unloaded[0].Bundle || !strings.Contains(cfg.Unloaded[0].Err.Error(), "symbolic link") {
		t.Fatalf("a linked bundle: Unloaded = %+v, want it refused", cfg.Unloaded)
	}
}
