//go:build windows

package fsutil

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/windows"
)

// TryLock takes an exclusive lock on the open file f without waiting
// (LockFileEx): ErrLocked when another process holds it. The lock goes
// with the process, however it ends. Open f with OpenLockFile, so that
// others may still remove the file while it is held.
func TryLock(f *os.File) error {
	if err := lockAll(windows.Handle(f.Fd()), windows.LOCKFILE_FAIL_IMMEDIATELY); err != nil {
		if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
			return ErrLocked
		}
		return fmt.Errorf("LockFileEx: %w", err)
	}
	return nil
}
