//go:build unix

package server

import (
	"os"
	"syscall"
)

// openDir opens d for listing, and only if it is a directory now: a FIFO,
// device or symlink put at d since the caller looked is refused at once
// (O_DIRECTORY: ENOTDIR; O_NOFOLLOW: ELOOP) instead of followed or opened,
// and O_NONBLOCK keeps even the open itself from waiting (a FIFO's open
// for reading waits for a writer, for ever if none comes).
func openDir(d string) (*os.File, error) {
	return os.OpenFile(d, os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
}
