//go:build unix

package bundle

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// What is signed must be what the directory shows: a symbolic link (which
// could point anywhere at install time) or a FIFO is refused, not followed
// or skipped.
func TestPackRefusesLinksAndSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"config.yaml": "hooks: {}\n"})
	if err := os.WriteFile(filepath.Join(dir, "guard.sh"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	a, err := Pack(dir, "corp", 0)
	if err != nil {
		t.Fatal(err)
	}
	if f, _ := a.Manifest.Lookup("guard.sh"); !f.Exec() {
		t.Fatalf("guard.sh not executable in %+v", a.Manifest)
	}
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	if _, err := Pack(dir, "corp", 0); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("symlink: %v", err)
	}
	os.Remove(filepath.Join(dir, "link"))
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Skip(err)
	}
	if _, err := Pack(dir, "corp", 0); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("fifo: %v", err)
	}
}
