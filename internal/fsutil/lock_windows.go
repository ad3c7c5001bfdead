//go:build windows

package fsutil

import (
	"context"
	"errors"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// Windows locks are LockFileEx byte-range locks over the whole file,
// exclusive. Like flock they belong to the handle and go with it: closing
// it, or the process dying, releases the lock, so a killed writer never
// leaves the file locked. Unlike flock they are mandatory (another handle
// cannot read or write a locked range), which is harmless here: every file
// locked is a lock file that holds no data, or (FlockWithin) one only its
// locker writes.

// lockAll takes (flags: LOCKFILE_FAIL_IMMEDIATELY or 0, which blocks) an
// exclusive lock on every byte of the open file h.
func lockAll(h windows.Handle, flags uint32) error {
	return windows.LockFileEx(h, windows.LOCKFILE_EXCLUSIVE_LOCK|flags, 0, ^uint32(0), ^uint32(0), new(windows.Overlapped))
}

func unlockAll(h windows.Handle) error {
	return windows.UnlockFileEx(h, 0, ^uint32(0), ^uint32(0), new(windows.Overlapped))
}

// Lock takes an exclusive lock on path, creating it if needed, and waits
// for it as long as it takes (as flock does on Unix).
func Lock(path string) (unlock func(), err error) {
	f, err := OpenLockFile(path)
	if err != nil {
		return nil, err
	}
	if err := lockAll(windows.Handle(f.Fd()), 0); err != nil {
		_ = f.Close()
		return nil, &os.PathError{Op: "LockFileEx", Path: path, Err: err}
	}
	return func() { _ = f.Close() }, nil
}

// LockContext takes an exclusive lock on path, as Lock does, but gives up
// after wait (ErrLockTimeout) or when ctx ends (its error). A blocking
// LockFileEx cannot be bounded, so it polls a non-blocking one with a
// short, growing pause, as the Unix build polls flock.
func LockContext(ctx context.Context, path string, wait time.Duration) (unlock func(), err error) {
	f, err := OpenLockFile(path)
	if err != nil {
		return nil, err
	}
	if err := pollLock(ctx, windows.Handle(f.Fd()), wait); err != nil {
		_ = f.Close()
		return nil, &os.PathError{Op: "LockFileEx", Path: path, Err: err}
	}
	return func() { _ = f.Close() }, nil
}

// FlockWithin takes an exclusive lock on the open file f, giving up after
// wait (ErrLockTimeout); unlock releases it and keeps f open.
func FlockWithin(f *os.File, wait time.Duration) (unlock func(), err error) {
	h := windows.Handle(f.Fd())
	if err := pollLock(context.Background(), h, wait); err != nil {
		return nil, &os.PathError{Op: "LockFileEx", Path: f.Name(), Err: err}
	}
	return func() { _ = unlockAll(h) }, nil
}

// pollLock tries the lock until it is taken, wait has passed
// (ErrLockTimeout) or ctx ends.
func pollLock(ctx context.Context, h windows.Handle, wait time.Duration) error {
	deadline := time.Now().Add(wait)
	pause := 50 * time.Microsecond
	t := time.NewTimer(time.Hour)
	defer t.Stop()
	for {
		err := lockAll(h, windows.LOCKFILE_FAIL_IMMEDIATELY)
		if err == nil {
			return nil
		}
		if !errors.Is(err, windows.ERROR_LOCK_VIOLATION) && !errors.Is(err, windows.ERROR_IO_PENDING) {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if !time.Now().Before(deadline) {
			return ErrLockTimeout
		}
		t.Reset(pause)
		select {
		case <-t.C:
		case <-ctx.Done():
		}
		pause = min(2*pause, 2*time.Millisecond)
	}
}

// SyncDir does nothing on Windows: a directory cannot be flushed through
// os, and NTFS journals the rename itself.
func SyncDir(string) error { return nil }
