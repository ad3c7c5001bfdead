//go:build unix

package fsutil

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

func openForLock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
}

// lockNow takes f's flock without waiting: ErrLocked when another process
// holds it.
func lockNow(f *os.File) error {
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return ErrLocked
		}
		return fmt.Errorf("flock: %w", err)
	}
	return nil
}
