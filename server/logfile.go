package server

import (
	"fmt"
	"os"
)

// The log file: serve's log quotes commands, paths and hook output, which
// may hold secrets, so the file is the owner's alone (0600, an existing
// file's mode tightened), and only a regular file at the path itself is
// written: never one a symbolic link there names, never a FIFO or a device
// (a write to a FIFO nobody reads waits forever).

// logOpenError says why the log file at path could not be opened, naming
// the two refusals a plain error would hide: a symbolic link at the path,
// a FIFO without a reader.
func logOpenError(path string, err error) error {
	if fi, lerr := os.Lstat(path); lerr == nil {
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link; not followed (serve writes its log only to a regular file at the path itself: name the file the link points to)", path)
		case !fi.Mode().IsRegular():
			return notRegularLog(path, fi.Mode())
		}
	}
	return err
}

// checkLogFile refuses anything opened at path but a regular file, and
// makes the file private (0600) when it is not yet: an existing log file
// readable by others would show them what serve logs.
func checkLogFile(f *os.File, path string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return notRegularLog(path, fi.Mode())
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := f.Chmod(fi.Mode().Perm() & 0o700); err != nil {
			return fmt.Errorf("%s is mode %04o, readable by others, and cannot be made private (%v); not used", path, fi.Mode().Perm(), err)
		}
	}
	return nil
}

func notRegularLog(path string, m os.FileMode) error {
	what := "not a regular file"
	switch {
	case m.IsDir():
		what = "a directory"
	case m&os.ModeNamedPipe != 0:
		what = "a FIFO"
	case m&os.ModeDevice != 0:
		what = "a device"
	case m&os.ModeSocket != 0:
		what = "a socket"
	}
	return fmt.Errorf("%s is %s, not a regular file; not used (writing to it could block serve, or never be read)", path, what)
}
