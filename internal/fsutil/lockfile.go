//go:build unix || windows

package fsutil

import (
	"errors"
	"fmt"
	"os"
)

// ErrLocked is TryLockFile's error when another process holds the lock.
var ErrLocked = errors.New("locked by another process")

// afterLockOpen, when set (tests), runs between opening the lock file and
// locking it: where another owner's exit can come in between.
var afterLockOpen func()

// TryLockFile takes a non-blocking exclusive lock on path (created mode
// 0600; flock on Unix, LockFileEx on Windows) and returns the open file that holds it; ErrLocked when another
// process holds it. It is for a lock that says "this process owns that"
// (serve's PATH.lock beside its socket), held for the process's life. The
// lock goes with the process: a server that dies, however it dies,
// releases it.
//
// An owner that stops removes the file (UnlockRemove), so the file we
// opened may be gone from path by the time we hold its lock: that lock
// locks nothing anyone else can find (a third would create a new
// file at path and lock that). The lock counts only while path is still
// the file locked; otherwise we start again on the new one.
func TryLockFile(path string) (*os.File, error) {
	for range 100 {
		f, err := openForLock(path)
		if err != nil {
			return nil, err
		}
		if afterLockOpen != nil {
			afterLockOpen()
		}
		if err := lockNow(f); err != nil {
			f.Close()
			return nil, err
		}
		if stillAt(f, path) {
			return f, nil
		}
		f.Close()
	}
	// Each round means another owner took the lock and stopped in the
	// meantime: 100 of them in a row is not a race, it is a loop.
	return nil, fmt.Errorf("lock %s: the file keeps being replaced", path)
}

// UnlockRemove releases the lock and removes its file (while still
// holding it, and only if path is still that file: see TryLockFile; on
// Windows every handle on it allows deletion).
func UnlockRemove(f *os.File, path string) {
	if stillAt(f, path) {
		_ = os.Remove(path)
	}
	f.Close()
}
