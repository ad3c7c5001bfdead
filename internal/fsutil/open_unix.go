//go:build unix

package fsutil

import (
	"os"
	"syscall"
)

// OpenNoBlock opens path for reading without blocking on a FIFO or a
// device, which a hook command or a planted file could name; the caller
// then checks it is a regular file before reading.
func OpenNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

// OpenDir opens path for listing, and only if it is a directory now: a
// FIFO, device or symlink put at path since the caller looked is refused
// at once (O_DIRECTORY: ENOTDIR; O_NOFOLLOW: ELOOP) instead of followed or
// opened, and O_NONBLOCK keeps even the open itself from waiting (a FIFO's
// open for reading waits for a writer, for ever if none comes).
func OpenDir(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_DIRECTORY|NoFollow, 0)
}

// OpenLockFile opens (creating, mode 0600) a lock file for appending
// without blocking: a FIFO planted at its name would otherwise hold up the
// open itself.
func OpenLockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND|syscall.O_NONBLOCK, 0o600)
}

// noBlockFlag opens without waiting on a FIFO or device (OpenRegular).
const noBlockFlag = syscall.O_NONBLOCK

// NoFollow opens the name itself, not what a symlink there leads to: a
// link (dangling too) fails the open (ELOOP), where following it would
// open, or create with the caller's rights, the file it names.
const NoFollow = syscall.O_NOFOLLOW
