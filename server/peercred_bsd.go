//go:build darwin || freebsd

package server

import "golang.org/x/sys/unix"

// peerCredUID reads LOCAL_PEERCRED of the Unix socket fd.
func peerCredUID(fd int) (int, error) {
	cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
	if err != nil {
		return 0, err
	}
	return int(cred.Uid), nil
}
