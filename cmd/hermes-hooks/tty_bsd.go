//go:build darwin || freebsd || netbsd || openbsd

package main

import "golang.org/x/sys/unix"

// isTerminal reports whether fd is a terminal (it has termios settings).
func isTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TIOCGETA)
	return err == nil
}
