package main

import "golang.org/x/sys/unix"

// isTerminal reports whether fd is a terminal (it has termios settings).
func isTerminal(fd uintptr) bool {
	_, err := unix.IoctlGetTermios(int(fd), unix.TCGETS)
	return err == nil
}
