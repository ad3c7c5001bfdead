//go:build windows

package fsutil

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// ErrLocked is TryLockFile's error when another process holds the lock.
var ErrLocked = errors.New("locked by another process")

// afterLockOpen, when set (tests), runs between opening the lock file and
// locking it: where another owner's exit can come in between.
var afterLockOpen func()

// TryLockFile takes a non-blocking exclusive lock on path (created if
// needed) and returns the open file that holds it; ErrLocked when another
// process holds it. As on Unix (see lockfile_unix.go), the lock counts only
// while path is still the file locked: an owner that stopped may have
// removed it in between (it can, as every handle on it allows deletion).
func TryLockFile(path string) (*os.File, error) {
	for range 100 {
		f, err := OpenLockFile(path)
		if err != nil {
			return nil, err
		}
		if afterLockOpen != nil {
			afterLockOpen()
		}
		if err := lockAll(windows.Handle(f.Fd()), windows.LOCKFILE_FAIL_IMMEDIATELY); err != nil {
			f.Close()
			if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
				return nil, ErrLocked
			}
			return nil, fmt.Errorf("LockFileEx: %w", err)
		}
		if stillAt(f, path) {
			return f, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("lock %s: the file keeps being replaced", path)
}

// UnlockRemove removes the lock file while still holding its lock (only if
// path is still that file), then releases it.
func UnlockRemove(f *os.File, path string) {
	if stillAt(f, path) {
		_ = os.Remove(path)
	}
	f.Close()
}
