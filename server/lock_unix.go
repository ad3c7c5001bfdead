//go:build unix

package server

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

// errLocked: another process holds the lock.
var errLocked = errors.New("locked by another process")

// lockExclusive takes a non-blocking exclusive flock on path (created mode
// 0600) and returns the open file that holds it; errLocked when another
// process holds it. The lock goes with the process: a server that dies,
// however it dies, releases it.
func lockExclusive(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return nil, errLocked
		}
		return nil, fmt.Errorf("flock: %w", err)
	}
	return f, nil
}
