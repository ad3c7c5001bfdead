//go:build unix

package fsutil

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Attack: what a caller looked at as a directory is swapped, before its
// open, for a FIFO nobody writes (whose open for reading would wait for
// ever), a symlink (to anywhere) or a file: OpenDir refuses each at once
// and opens only a directory.
func TestOpenDirOpensOnlyADirectory(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	fifo, link, file := filepath.Join(dir, "fifo"), filepath.Join(dir, "link"), filepath.Join(dir, "file")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path string
		ok   bool
	}{{real, true}, {fifo, false}, {link, false}, {file, false}} {
		done := make(chan error, 1)
		go func() {
			f, err := OpenDir(c.path)
			if err == nil {
				f.Close()
			}
			done <- err
		}()
		select {
		case err := <-done:
			if (err == nil) != c.ok {
				t.Errorf("OpenDir(%s): %v, want it opened: %v", filepath.Base(c.path), err, c.ok)
			}
		case <-time.After(time.Minute):
			t.Fatalf("OpenDir(%s) blocked", filepath.Base(c.path))
		}
	}
}
