package fsutil

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/windows"
)

// skipWithoutPosixRename skips where the system has no POSIX-semantics
// rename (Wine 8 answers STATUS_NOT_IMPLEMENTED): there a file open with
// FILE_SHARE_DELETE cannot be renamed over, and only real Windows can
// show that replace does.
func skipWithoutPosixRename(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := posixRename(a, b); errors.Is(err, windows.STATUS_NOT_IMPLEMENTED) {
		t.Skip("no POSIX-semantics rename on this system (Wine 8): a file open elsewhere cannot be replaced; verify on Windows 10+")
	}
}
