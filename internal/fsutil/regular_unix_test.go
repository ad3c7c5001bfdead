//go:build unix

package fsutil

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// OpenRegular neither blocks on a FIFO (for reading it would wait for a
// writer; for writing, with no reader, it fails) nor returns one.
func TestOpenRegularRefusesAFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, flag := range []int{os.O_RDONLY, os.O_RDWR | os.O_APPEND, os.O_RDWR | os.O_CREATE} {
		if f, err := OpenRegular(fifo, flag, 0o600); !errors.Is(err, ErrNotRegular) {
			f.Close()
			t.Errorf("flag %#x: %v, want ErrNotRegular", flag, err)
		}
	}
	if _, err := OpenRegular(dir, os.O_RDONLY, 0); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a directory: %v", err)
	}
	f, err := OpenRegular(filepath.Join(dir, "file"), os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write([]byte("line\n")); err != nil {
		t.Fatal(err)
	}
}
