//go:build !unix

package server

import (
	"io"
	"os"
)

// openLogFile opens --log-file for appending: a symbolic link at the path
// is refused first (there is no O_NOFOLLOW here, so a link created between
// the check and the open is not caught), then anything but a regular file.
func openLogFile(path string) (io.WriteCloser, error) {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		return nil, logOpenError(path, os.ErrInvalid)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return nil, logOpenError(path, err)
	}
	if err := checkLogFile(f, path); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
