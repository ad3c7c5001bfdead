//go:build unix

package server

import (
	"os"
	"syscall"
)

// lockExclusive takes a non-blocking exclusive flock on path (created mode
// 0600) and returns the open file that holds it.
func lockExclusive(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
