//go:build linux || darwin || freebsd

package server

import (
	"errors"
	"net"
	"syscall"
)

// PeerUID is the user id of the process at the other end of a Unix socket
// connection, as the kernel recorded it when the connection was made
// (SO_PEERCRED on Linux, LOCAL_PEERCRED on darwin and freebsd): neither
// side can forge it. ok is false where the connection is not a Unix
// socket (the socket's mode is then the only access control).
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
	var serr error
	if err := raw.Control(func(fd uintptr) { uid, serr = peerCredUID(int(fd)) }); err != nil {
		return 0, true, err
	}
	if serr != nil {
		return 0, true, serr
	}
	return uid, true, nil
}
