//go:build unix || windows

package server

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// A server removes its lock file when it stops, and one starting at that
// moment still cannot end up beside another: here the second server opens
// the lock file, the first stops (removing it), and only then does the
// second lock what it opened — a file no longer at the path. It must take
// the lock on the file at the path instead, so a third server is refused.
// (Before the check, the second held the removed file and the third
// created and locked a new one: two servers, each with "the" lock.)
func TestLockRemovedAtStopIsNeverHeldTwice(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.sock.lock")
	first, err := lockOwner(path)
	if err != nil {
		t.Fatal(err)
	}
	afterLockOpen = func() {
		afterLockOpen = nil
		unlockRemove(first, path) // the first server stops
	}
	t.Cleanup(func() { afterLockOpen = nil })
	second, err := lockOwner(path)
	if err != nil {
		t.Fatalf("second server: %v", err)
	}
	defer second.Close()
	if third, err := lockOwner(path); !errors.Is(err, fsutil.ErrLocked) {
		if third != nil {
			third.Close()
		}
		t.Fatalf("third server: %v, want ErrLocked while the second holds the lock", err)
	}
	unlockRemove(second, path)
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("lock file left after the last server stopped: %v", err)
	}
}
