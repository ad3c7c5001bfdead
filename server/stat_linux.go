//go:build linux

package server

import (
	"os"
	"strconv"
	"syscall"
	"time"
)

// fileTimes returns a file's modification and change times (the change time
// moves on every write, and cannot be set back by hand).
func fileTimes(fi os.FileInfo) (mtime, ctime time.Time) {
	mtime = fi.ModTime()
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		ctime = time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec))
	}
	return mtime, ctime
}

func fileIdentity(fi os.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return strconv.FormatUint(uint64(st.Dev), 10) + ":" + strconv.FormatUint(st.Ino, 10)
	}
	return ""
}
