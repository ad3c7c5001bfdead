package fsutil

import (
	"fmt"
	"os"
)

// OpenRegular is OpenFile for a file that must be a regular one: it opens
// without blocking on a FIFO or device planted at path (a FIFO opened for
// reading waits for a writer, and one a process opens for both reading and
// writing takes a write larger than its buffer for ever) and refuses
// anything but a regular file with ErrNotRegular. Non-blocking mode has no
// effect on a regular file's reads and writes.
func OpenRegular(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := OpenFile(path, flag|noBlockFlag, perm)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, kind(fi.Mode()))
	}
	return f, nil
}
