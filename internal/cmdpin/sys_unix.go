//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package cmdpin

import (
	"syscall"
)

// Accessible asks the kernel whether the current user may execute (or
// read) path, which accounts for ownership, groups, ACLs and root.
func Accessible(path string, exec bool) bool {
	mode := uint32(4) // R_OK
	if exec {
		mode = 1 // X_OK
	}
	return syscall.Access(path, mode) == nil
}
