//go:build unix

package server

import (
	"fmt"
	"os"
	"syscall"
)

// owner is the user id that owns fi (-1 when the platform does not say).
func owner(fi os.FileInfo) int {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int(st.Uid)
	}
	return -1
}

// ownedByMe says why fi (at path, what it is) is not owned by this
// process's user ("" when it is).
func ownedByMe(path, what string, fi os.FileInfo) string {
	if uid := owner(fi); uid != os.Geteuid() {
		return fmt.Sprintf("%s %s is owned by uid %d, not by you (uid %d)", what, path, uid, os.Geteuid())
	}
	return ""
}
