//go:build unix

package hookconfig

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// managedOwner is who must own the managed config and its directories.
const managedOwner = "root (uid 0)"

// ownerOf is the user id owning fi (-1 when the system does not say).
func ownerOf(fi fs.FileInfo) int64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return int64(st.Uid)
	}
	return -1
}

// managedFileProblem says why the open managed config f (at path) is not
// the administrator's alone ("" when it is): owned by root, writable by
// neither its group nor others.
func managedFileProblem(path string, _ *os.File, fi fs.FileInfo) string {
	if uid := ownerOf(fi); uid != 0 {
		return fmt.Sprintf("%s is owned by uid %d, not root", path, uid)
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 {
		return fmt.Sprintf("%s has mode %04o: writable by its group or by others", path, perm)
	}
	return ""
}

// managedDirProblem says why dir, above the managed config, would let
// someone but root replace it ("" when it would not).
func managedDirProblem(dir string, fi fs.FileInfo) string {
	if uid := ownerOf(fi); uid != 0 {
		return fmt.Sprintf("directory %s is owned by uid %d, not root", dir, uid)
	}
	if perm := fi.Mode().Perm(); perm&0o022 != 0 && fi.Mode()&fs.ModeSticky == 0 {
		return fmt.Sprintf("directory %s has mode %04o: writable by its group or by others", dir, perm)
	}
	return ""
}
