//go:build darwin || freebsd

package server

import (
	"errors"
	"net"
	"syscall"

	"golang.org/x/sys/unix"
)

// PeerUID is the user id of the process at the other end of a Unix socket
// connection (LOCAL_PEERCRED: the credentials the kernel recorded at
// connect time, which neither side can forge). ok is false where the
// connection is not a Unix socket.
func PeerUID(c net.Conn) (uid int, ok bool, err error) {
	sc, isSys := c.(syscall.Conn)
	if !isSys {
		return 0, false, errors.New("not a socket connection")
	}
	if _, isUnix := c.LocalAddr().(*net.UnixAddr); !isUnix {
		return 0, false, nil
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return 0, true, err
	}
	var cred *unix.Xucred
	var serr error
	if err := raw.Control(func(fd uintptr) {
		cred, serr = unix.GetsockoptXucred(int(fd), unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	}); err != nil {
		return 0, true, err
	}
	if serr != nil {
		return 0, true, serr
	}
	return int(cred.Uid), true, nil
}
