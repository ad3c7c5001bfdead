//go:build !unix

package server

import (
	"errors"
	"os"
)

// errLocked: another process holds the lock (never reported here).
var errLocked = errors.New("locked by another process")

// lockExclusive only opens the lock file where flock is not available.
func lockExclusive(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
}

// unlockRemove closes the lock file and removes it.
func unlockRemove(f *os.File, path string) {
	f.Close()
	_ = os.Remove(path)
}
