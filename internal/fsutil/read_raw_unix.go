//go:build unix

package fsutil

import (
	"io"
	"io/fs"
	"os"
	"syscall"
)

// openRaw opens path for ReadRegular with plain open and fstat calls, no
// *os.File: the first *os.File a process opens starts Go's network poller
// (an epoll instance, an eventfd, their registrations, and polling by the
// scheduler from then on), and a one-shot dispatch that reads a config, a
// cached parse and a session file and runs no hook needs none of it. The
// errors are the ones os would give.
func openRaw(path string) (r io.Reader, mode os.FileMode, size int64, closeFn func() error, err error) {
	var fd int
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, 0, 0, nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	closeFn = func() error { return syscall.Close(fd) }
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, 0, 0, closeFn, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	return fdReader{fd, path}, fileMode(uint32(st.Mode)), st.Size, closeFn, nil
}

// fdReader reads a descriptor, retrying only EINTR: an EAGAIN is an error,
// as os returns it for a file that cannot be polled (FUSE, some kernel
// files), never a busy loop.
type fdReader struct {
	fd   int
	path string
}

func (r fdReader) Read(p []byte) (int, error) {
	for {
		n, err := syscall.Read(r.fd, p)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return 0, &fs.PathError{Op: "read", Path: r.path, Err: err}
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}

// fileMode is the type bits of a stat mode as os reports them.
func fileMode(m uint32) os.FileMode {
	switch m & syscall.S_IFMT {
	case syscall.S_IFREG:
		return 0
	case syscall.S_IFDIR:
		return os.ModeDir
	case syscall.S_IFIFO:
		return os.ModeNamedPipe
	case syscall.S_IFCHR:
		return os.ModeDevice | os.ModeCharDevice
	case syscall.S_IFBLK:
		return os.ModeDevice
	case syscall.S_IFSOCK:
		return os.ModeSocket
	case syscall.S_IFLNK:
		return os.ModeSymlink
	}
	return os.ModeIrregular
}
