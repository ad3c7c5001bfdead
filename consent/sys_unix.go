//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package consent

import (
	"errors"
	"os"
	"syscall"
)

// lockFile takes an exclusive flock on path, creating it if needed. flock is
// what Hermes' fcntl.flock takes, so the two tools exclude each other. The
// lock belongs to the open file description, so two goroutines of one
// process, each opening the file, exclude each other as well.
func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		_ = f.Close()
		return nil, &os.PathError{Op: "flock", Path: path, Err: err}
	}
	// Closing the descriptor releases the lock, also when the process
	// dies, which is why a killed writer never leaves the file locked.
	return func() { _ = f.Close() }, nil
}

// syncDir flushes a directory so that a rename inside it is durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOTSUP) {
		return err
	}
	return nil
}

// accessible asks the kernel whether the current user may execute (or
// read) path, which accounts for ownership, groups, ACLs and root.
func accessible(path string, exec bool) bool {
	mode := uint32(4) // R_OK
	if exec {
		mode = 1 // X_OK
	}
	return syscall.Access(path, mode) == nil
}

// openNoBlock opens path for reading without blocking on FIFOs and devices,
// which a hook command could name; the caller then checks it is a regular
// file before reading.
func openNoBlock(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}
