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
	rc := rawConn(c)
	if rc == nil {
		return false
	}
	ready := false
	_ = rc.Control(func(fd uintptr) { ready = pollIn(fd) })
	return ready
}

// AwaitReadable waits, as a Read of c would and under c's read deadline,
// until c has bytes or its end to be read, and takes none of them: a
// caller can note that something arrived before it leaves the kernel.
// True then; false when c has no descriptor, or the wait ended otherwise
// (the deadline passed, c was closed), which a Read of c then reports.
func AwaitReadable(c any) bool {
	rc := rawConn(c)
	if rc == nil {
		return false
	}
	ready := false
	// The runtime's poller waits between calls while f returns false.
	err := rc.Read(func(fd uintptr) bool {
		ready = pollIn(fd)
		return ready
	})
	return err == nil && ready
}

func rawConn(c any) syscall.RawConn {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return nil
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return nil
	}
	return rc
}

// pollIn: fd has bytes, its end or an error for a read to report.
func pollIn(fd uintptr) bool {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n > 0
}
