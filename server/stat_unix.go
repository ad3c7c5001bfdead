//go:build unix

package server

import (
	"os"
	"strconv"
	"syscall"
)

// fileIdentity is fi's device and inode: a file replaced by rename (an
// editor's save, a copy that keeps size and times) is another inode. Every
// Unix has them, so the portable build (macOS, the BSDs) reads them too.
func fileIdentity(fi os.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return strconv.FormatUint(uint64(st.Dev), 10) + ":" + strconv.FormatUint(st.Ino, 10)
	}
	return ""
}
