//go:build unix

package fsutil

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// TryLock takes an exclusive lock on the open file f without waiting
// (flock): ErrLocked when another process holds it. The lock goes with the
// process, however it ends. f is best opened with OpenLockFile.
func TryLock(f *os.File) error {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return ErrLocked
		}
		return fmt.Errorf("flock: %w", err)
	}
	return nil
}
