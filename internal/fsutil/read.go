package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrNotRegular refuses a path that names a FIFO, a device, a socket or a
// directory: reading one could block forever (a FIFO nobody writes,
// /dev/stdin) or never end (/dev/zero).
var ErrNotRegular = errors.New("not a regular file")

// ErrOutside refuses a file that, once symbolic links are followed, lies
// outside the directory it had to stay in.
var ErrOutside = errors.New("outside the project")

// TooLargeError refuses a file larger than its bound.
type TooLargeError struct{ Size, Max int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("larger than %d bytes (%d)", e.Max, e.Size)
}

// WithoutPath is err as a message that names path itself goes on with
// it: Go's "open PATH: no such file or directory" without "open PATH: ",
// and this package's "PATH: not a regular file (a FIFO)" without
// "PATH: ". An error about another path, or one that wraps Go's in more
// words, is returned as it is; what err wraps stays wrapped (errors.Is
// still sees fs.ErrNotExist).
func WithoutPath(path string, err error) error {
	// Only err itself: a PathError wrapped in more words keeps them.
	if pe, ok := err.(*fs.PathError); ok && pe.Path == path {
		return pe.Err
	}
	if rest, ok := strings.CutPrefix(err.Error(), path+": "); ok {
		return &reason{msg: rest, err: err}
	}
	return err
}

// reason is an error shown as msg that wraps err.
type reason struct {
	msg string
	err error
}

func (r *reason) Error() string { return r.msg }
func (r *reason) Unwrap() error { return r.err }

// ReadRegular reads a regular file of at most max bytes. It never blocks on
// a FIFO or a device (the file is opened non-blocking and checked before it
// is read). When within is not empty, the file actually opened — after every
// symbolic link — must lie inside within (itself resolved), so a repository
// cannot point a file it names at /dev/stdin or at another user's files;
// that is checked link by link before the open (checkWithin), so nothing
// outside is looked at, and the file is opened beneath within as checked
// (openBeneath), so a link changed in between opens nothing outside.
func ReadRegular(path, within string, max int64) ([]byte, error) {
	var (
		r       io.Reader
		f       *os.File
		mode    os.FileMode
		size    int64
		closeFn func() error
		err     error
	)
	if within != "" {
		// Checked as cleaned, so that link/.. is not the link's parent.
		var root, rel string
		if root, rel, err = checkWithin(filepath.Clean(path), within); err == nil {
			f, err = openBeneath(root, rel, path)
		}
	} else if r, mode, size, closeFn, err = openRaw(path); r == nil && err == nil {
		// No path check to make: no *os.File either, where openRaw can.
		f, err = OpenNoBlock(path)
	}
	if f != nil {
		closeFn = f.Close
		var fi os.FileInfo
		if fi, err = f.Stat(); err == nil {
			r, mode, size = f, fi.Mode(), fi.Size()
		}
	}
	if closeFn != nil {
		defer closeFn()
	}
	if err != nil {
		return nil, err
	}
	if !mode.IsRegular() {
		return nil, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, kind(mode))
	}
	if size > max {
		return nil, fmt.Errorf("%s: %w", path, &TooLargeError{Size: size, Max: max})
	}
	data, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("%s: %w", path, &TooLargeError{Size: int64(len(data)), Max: max})
	}
	return data, nil
}

func kind(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a FIFO"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	}
	return "not a plain file"
}

// openBeneath opens rel (what checkWithin resolved path to) beneath root
// through an os.Root: each part is opened from the one before, and a link
// that now leads outside root is refused, not followed, so a link swapped
// after the check opens nothing outside. An error names path, as an open
// of path would.
func openBeneath(root, rel, path string) (*os.File, error) {
	dir, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer dir.Close()
	f, err := dir.OpenFile(rel, os.O_RDONLY|noBlockFlag, 0)
	if pe, ok := err.(*fs.PathError); ok {
		pe.Op, pe.Path = "open", path
	}
	return f, err
}
