//go:build windows

package fsutil

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// openForLock opens the lock file so that others may delete it (an owner
// that stops removes it, see UnlockRemove).
func openForLock(path string) (*os.File, error) { return OpenLockFile(path) }

// lockNow takes f's LockFileEx lock without waiting: ErrLocked when
// another process holds it.
func lockNow(f *os.File) error {
	if err := lockAll(windows.Handle(f.Fd()), windows.LOCKFILE_FAIL_IMMEDIATELY); err != nil {
		if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
			return ErrLocked
		}
		return fmt.Errorf("LockFileEx: %w", err)
	}
	return nil
}
