//go:build unix

package cli

import (
	"os"
	"syscall"
)

// privateToMe: the probe's folder (mode 0700 exactly) or file (no group or
// other bits) belongs to the user this process runs as, and nobody else
// can read it; a file git checks out is readable by everyone.
func privateToMe(_ string, fi os.FileInfo) bool {
	if fi.IsDir() && fi.Mode().Perm() != 0o700 || !fi.IsDir() && fi.Mode().Perm()&0o077 != 0 {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
