//go:build !(linux || openbsd || dragonfly || solaris || illumos || darwin || freebsd || netbsd)

package fsutil

import (
	"os"
	"time"
)

// changeTime is not read here (Windows' FileInfo carries none).
func changeTime(os.FileInfo) (time.Time, bool) { return time.Time{}, false }
