package fsutil

import (
	"os"
	"time"
)

// LastWrite is the later of fi's modification and change times that is
// not after now (a time in the future is no write's: it was set by hand,
// or by a clock that disagrees with ours); zero when both are. Where
// FileTimes has no change time, the modification time stands for both.
func LastWrite(fi os.FileInfo, now time.Time) time.Time {
	var last time.Time
	mt, ct := FileTimes(fi)
	for _, t := range []time.Time{mt, ct} {
		if t.After(last) && !t.After(now) {
			last = t
		}
	}
	return last
}
