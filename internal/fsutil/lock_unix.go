//go:build unix

package fsutil

import (
	"errors"
	"os"
	"syscall"
	"time"
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

// FlockWithin takes an exclusive flock on the open file f, giving up after
// wait (ErrLockTimeout); unlock releases it and keeps f open, for callers
// that lock the same file again and again. It is for a writer that must not
// hold up its caller (the decision journal): a lock kept by a stuck process
// is an error to report, not a reason to hang. flock cannot be interrupted
// by a timer, so it polls a non-blocking flock with a short, growing pause.
func FlockWithin(f *os.File, wait time.Duration) (unlock func(), err error) {
	fd := int(f.Fd())
	deadline := time.Now().Add(wait)
	pause := 50 * time.Microsecond
	for {
		err = syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { _ = syscall.Flock(fd, syscall.LOCK_UN) }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			return nil, &os.PathError{Op: "flock", Path: f.Name(), Err: err}
		}
		if time.Now().After(deadline) {
			return nil, &os.PathError{Op: "flock", Path: f.Name(), Err: ErrLockTimeout}
		}
		time.Sleep(pause)
		pause = min(2*pause, 2*time.Millisecond)
	}
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
