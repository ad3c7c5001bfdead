package fsutil

import (
	"os"
	"time"
)

// FileTimes returns a file's modification and change times. The change
// time moves on every write, chmod, chown, link and rename, and cannot be
// set back by hand (unlike the mtime, which `touch -d` and every copy
// that keeps times set). Every Unix has it (changeTime), not only Linux:
// the portable build reads it too. Where it is not read (Windows), the
// modification time stands for both.
func FileTimes(fi os.FileInfo) (mtime, ctime time.Time) {
	mtime = fi.ModTime()
	if ct, ok := changeTime(fi); ok {
		return mtime, ct
	}
	return mtime, mtime
}

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
