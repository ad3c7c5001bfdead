//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package consent

import (
	"os"
	"syscall"
)

// openLockFile opens (creating) a lock file without blocking: a FIFO
// planted at its name would otherwise hold up the open itself.
func openLockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND|syscall.O_NONBLOCK, 0o600)
}
