package install

import (
	"fmt"
	"io/fs"
	"path/filepath"
)

// A managed hook runs for every user of the machine, as that user. If the
// program it names is a file a user can replace (in their home, in /tmp,
// under a folder they own), that user decides what every other user's
// agent runs, and can turn the administrator's guard into anything: the
// managed layer would be theirs. So install --managed writes a binary's
// path only when neither it nor any folder above it can be changed by
// anyone but root (SystemBinary); --force writes it anyway, with the
// reason printed.

// fileOwner is what SystemBinary reads of a path: its owner and mode,
// without following a final symbolic link.
type fileOwner struct {
	uid  uint32
	mode fs.FileMode
}

// SystemBinary returns nil when path, an absolute program path, and every
// folder above it (both as written and with its links followed) are owned
// by root and writable by no one else; otherwise an error naming the first
// path that is not, and why. On a system where ownership cannot be read
// this way (Windows), it returns ErrNotChecked.
func SystemBinary(path string) error {
	return checkSystemBinary(path, lstatOwner, filepath.EvalSymlinks)
}

// checkSystemBinary is SystemBinary over lstat and evalSymlinks (tests
// give a fake file system).
func checkSystemBinary(path string, lstat func(string) (fileOwner, error), eval func(string) (string, error)) error {
	if !filepath.IsAbs(path) {
		return fmt.Errorf("%s: not an absolute path", path)
	}
	paths := []string{filepath.Clean(path)}
	if real, err := eval(path); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	} else if real != paths[0] {
		paths = append(paths, real)
	}
	for _, p := range paths {
		for cur := p; ; cur = filepath.Dir(cur) {
			fo, err := lstat(cur)
			if err != nil {
				return err
			}
			if why := notSystem(fo); why != "" {
				what := "the folder"
				if cur == p {
					what = "the program"
				}
				return fmt.Errorf("%s: %s %s %s", path, what, cur, why)
			}
			if filepath.Dir(cur) == cur {
				break
			}
		}
	}
	return nil
}

// notSystem says why a file with this owner and mode can be changed by
// someone other than root ("" when it cannot).
func notSystem(fo fileOwner) string {
	switch {
	case fo.mode&fs.ModeSymlink != 0 && fo.uid == 0:
		return "" // a link's own mode means nothing; its folder is checked
	case fo.uid != 0:
		return fmt.Sprintf("is owned by uid %d, not root", fo.uid)
	case fo.mode.Perm()&0o002 != 0:
		return "is writable by every user"
	case fo.mode.Perm()&0o020 != 0:
		return "is writable by its group"
	}
	return ""
}
