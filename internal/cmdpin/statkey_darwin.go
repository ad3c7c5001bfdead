package cmdpin

import (
	"os"
	"syscall"
)

// sysKey adds the inode identity and change time to a file's key. ctime
// cannot be set back by a user (unlike mtime), so a rewrite that restores
// size and mtime still changes the key.
func sysKey(fi os.FileInfo) (dev, ino uint64, ctime int64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Dev), st.Ino, st.Ctimespec.Nano()
	}
	return 0, 0, 0
}
