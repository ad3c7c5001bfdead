//go:build unix

package server

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Closing the listener removes the lock file beside the socket (issue
// 24): a stopped server leaves nothing behind.
func TestListenCloseRemovesTheLockFile(t *testing.T) {
	path := filepath.Join(shortDir(t), "s.sock")
	ln, err := Listen(Addr{"unix", path}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path + ".lock"); err != nil {
		t.Fatalf("no lock file while serving: %v", err)
	}
	ln.Close()
	for _, p := range []string{path, path + ".lock"} {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s left after Close: %v", p, err)
		}
	}
}
