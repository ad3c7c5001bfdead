//go:build linux || openbsd || dragonfly || solaris || illumos

package fsutil

import (
	"os"
	"syscall"
	"time"
)

// changeTime is fi's status change time (st_ctim on these systems).
func changeTime(fi os.FileInfo) (time.Time, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(st.Ctim.Unix()), true
}
