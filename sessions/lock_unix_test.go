//go:build unix

package sessions

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// holdLock takes the sessions directory's lock through a descriptor of its
// own (flock excludes other open files of the same process too).
func holdLock(t *testing.T, dir string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
}

// A lock that stays taken costs an update its bound, not a hang.
func TestFileSessionsLockWaitBounded(t *testing.T) {
	dir := t.TempDir()
	holdLock(t, dir)
	s := &Files{Dir: dir, LockWait: 50 * time.Millisecond}
	err := s.Update("s1", func(*Session) error { return nil })
	if !errors.Is(err, fsutil.ErrLockTimeout) {
		t.Fatalf("Update with the lock held: %v", err)
	}
	if err := s.Clear("s1"); !errors.Is(err, fsutil.ErrLockTimeout) {
		t.Fatalf("Clear with the lock held: %v", err)
	}
}

// The wait ends when the caller's context does, however long the bound.
func TestFileSessionsLockWaitCancellable(t *testing.T) {
	dir := t.TempDir()
	holdLock(t, dir)
	s := &Files{Dir: dir, LockWait: time.Hour}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.UpdateContext(ctx, "s1", func(*Session) error { return nil }) }()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("UpdateContext after cancel: %v", err)
		}
	case <-time.After(time.Minute): // a hang guard, not a speed bound
		t.Fatal("the wait for the lock ignored the cancellation")
	}
}
