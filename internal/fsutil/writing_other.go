//go:build !linux || hermes_portable

package fsutil

import (
	"os"
	"time"
)

// FileTimes: where the change time is not read, the modification time
// stands for both.
func FileTimes(fi os.FileInfo) (mtime, ctime time.Time) { return fi.ModTime(), fi.ModTime() }

// BeingWritten cannot tell here (no leases): the settle period alone
// decides.
func BeingWritten(string) bool { return false }
