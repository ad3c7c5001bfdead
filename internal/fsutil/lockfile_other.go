//go:build !unix && !windows

package fsutil

import (
	"errors"
	"os"
)

// ErrLocked is TryLockFile's error when another process holds the lock
// (never reported here).
var ErrLocked = errors.New("locked by another process")

// TryLockFile only opens the lock file where flock is not available.
func TryLockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
}

// UnlockRemove closes the lock file and removes it.
func UnlockRemove(f *os.File, path string) {
	f.Close()
	_ = os.Remove(path)
}
