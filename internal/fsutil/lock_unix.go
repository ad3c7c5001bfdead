//go:build unix

package fsutil

import (
	"errors"
	"os"
	"syscall"
)

// Lock takes an exclusive flock on path, creating it (mode 0600) if needed.
// The lock belongs to the open file description, so two goroutines of one
// process that each call Lock exclude each other too; closing the
// descriptor — or the process dying — releases it, so a killed writer never
// leaves the file locked.
func Lock(path string) (unlock func(), err error) {
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
	return func() { _ = f.Close() }, nil
}

// SyncDir flushes a directory so that a rename inside it is durable.
func SyncDir(dir string) error {
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
