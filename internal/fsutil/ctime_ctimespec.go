//go:build darwin || freebsd || netbsd

package fsutil

import (
	"os"
	"syscall"
	"time"
)

// changeTime is fi's status change time (st_ctimespec on macOS and these
// BSDs; the same clock as Linux's st_ctim: chmod, link, rename and every
// write move it).
func changeTime(fi os.FileInfo) (time.Time, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(st.Ctimespec.Unix()), true
}
