//go:build unix

package hookconfig

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// othersMayWrite says how someone other than the user (and root) could
// change the file at path, one of the user's own: "" when nobody could.
// The user's own files are trusted as what the user wrote (a rule runs
// unapproved, hooks_auto_accept approves what they name), which does not
// hold for a file another user can write or replace: then the person is
// told, as ssh tells of a key file others can read. Group write counts
// only for a group that is not the user's own (a user private group,
// umask 002, is the usual set-up on many systems and is the user alone).
func othersMayWrite(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return ""
	}
	if why := writableBy("it", fi); why != "" {
		return why
	}
	real, err := filepath.EvalSymlinks(path)
	if err != nil {
		return ""
	}
	// Anyone who can write a directory above it can put another file in
	// its place, unless the directory is sticky (/tmp).
	_, why, _ := dirsUp(filepath.Dir(real), func(dir string, di fs.FileInfo) string {
		if di.Mode()&fs.ModeSticky != 0 {
			return ""
		}
		if why := writableBy("directory "+dir, di); why != "" {
			return why + ", so they can replace it"
		}
		return ""
	})
	return why
}

// writableBy says who but the user and root can write what fi describes
// (named what).
func writableBy(what string, fi fs.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	perm := fi.Mode().Perm()
	switch {
	case st.Uid != 0 && int(st.Uid) != os.Getuid():
		return fmt.Sprintf("%s is owned by uid %d, another user", what, st.Uid)
	case perm&0o002 != 0:
		return fmt.Sprintf("every user can write %s (mode %04o)", what, perm)
	case perm&0o020 != 0 && int(st.Gid) != os.Getgid():
		return fmt.Sprintf("group %d, not yours, can write %s (mode %04o)", st.Gid, what, perm)
	}
	return ""
}
