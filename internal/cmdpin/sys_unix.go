//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package cmdpin

import (
	"os"
	"syscall"
)

// Accessible asks the kernel whether the current user may execute (or
// read) path, which accounts for ownership, groups, ACLs and root.
func Accessible(path string, exec bool) bool {
	mode := uint32(4) // R_OK
	if exec {
		mode = 1 // X_OK
	}
	return syscall.Access(path, mode) == nil
}

// openNoBlock opens path for reading without blocking on FIFOs and devices,
// which a hook command could name; the caller then checks it is a regular
// file before reading.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// openLockFile opens (creating) a lock file without blocking: a FIFO
// planted at its name would otherwise hold up the open itself.
func openLockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND|syscall.O_NONBLOCK, 0o600)
}
