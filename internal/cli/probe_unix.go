//go:build unix

package cli

import (
	"os"
	"syscall"
)

// ownedByMe: the probe file belongs to the user this process runs as.
func ownedByMe(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Getuid()
}
