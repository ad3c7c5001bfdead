//go:build unix

package fsutil

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// Readable reports whether c (a pipe, a socket) has bytes, or its end,
// waiting to be read, without reading them: poll(2) with no wait, through
// SyscallConn (Fd would switch the descriptor to blocking mode, and its
// deadlines would no longer apply). False when c has no descriptor.
func Readable(c any) bool {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	ready := false
	_ = rc.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		ready = err == nil && n > 0
	})
	return ready
}
