//go:build !linux && !darwin && !freebsd && !netbsd && !openbsd

package main

// isTerminal reports false: where termios cannot be asked, a confirmation
// needs --yes.
func isTerminal(uintptr) bool { return false }
