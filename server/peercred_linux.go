//go:build linux

package server

import "syscall"

// peerCredUID reads SO_PEERCRED of the Unix socket fd.
func peerCredUID(fd int) (int, error) {
	cred, err := syscall.GetsockoptUcred(fd, syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	if err != nil {
		return 0, err
	}
	return int(cred.Uid), nil
}
