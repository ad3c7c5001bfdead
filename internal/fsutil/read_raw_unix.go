//go:build unix

package fsutil

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// readRegularRaw is ReadRegular without a *os.File: plain open, fstat and
// read calls. The first *os.File a process opens starts Go's network
// poller (an epoll instance, an eventfd, their registrations, and polling
// by the scheduler from then on); a one-shot dispatch that reads a config,
// a cached parse and a session file and runs no hook needs none of it.
// The errors are the ones os would give. done is false when it cannot
// tell (never, on Unix).
func readRegularRaw(path string, max int64) (data []byte, done bool, err error) {
	var fd int
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, true, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, true, &fs.PathError{Op: "stat", Path: path, Err: err}
	}
	if mode := fileMode(uint32(st.Mode)); !mode.IsRegular() {
		return nil, true, fmt.Errorf("%s: %w (%s)", path, ErrNotRegular, kind(mode))
	}
	if st.Size > max {
		return nil, true, fmt.Errorf("%s: %w", path, &TooLargeError{Size: st.Size, Max: max})
	}
	// (An EAGAIN is an error here, as os returns it for a file that
	// cannot be polled: never a busy loop on a FUSE or kernel file.)
	max = min(max, 1<<62) // max+1 below must not overflow
	buf := make([]byte, 0, min(st.Size, max)+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):min(int64(cap(buf)), max+1)])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil, true, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n == 0 {
			break
		}
		buf = buf[:len(buf)+n]
		if int64(len(buf)) > max {
			return nil, true, fmt.Errorf("%s: %w", path, &TooLargeError{Size: int64(len(buf)), Max: max})
		}
	}
	return buf, true, nil
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
