//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package cmdpin

import (
	"os"
)

// Accessible approximates access(2) with the permission bits.
func Accessible(path string, exec bool) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	if exec && onWindows {
		// No execute bit: Windows starts what PATHEXT names.
		return hasExecExt(path, pathExts(nil))
	}
	if exec {
		return fi.Mode().Perm()&0o111 != 0
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	_ = f.Close()
	return true
}
