//go:build unix

package fsutil

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"
)

// LockContext takes an exclusive flock on path, as Lock does, but gives up
// after wait (ErrLockTimeout) or when ctx ends (its error): a lock kept by
// a stuck process (stopped, or hung on a network file system) must hold up
// neither its caller nor the caller's cancellation. flock cannot be
// interrupted by a timer or a context, so it polls a non-blocking flock
// with a short, growing pause.
func LockContext(ctx context.Context, path string, wait time.Duration) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	fd := int(f.Fd())
	deadline := time.Now().Add(wait)
	pause := 50 * time.Microsecond
	var t *time.Timer
	defer func() {
		if t != nil {
			t.Stop()
		}
	}()
	for {
		err = syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			return func() { _ = f.Close() }, nil
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) && !errors.Is(err, syscall.EINTR) {
			break
		}
		if err = ctx.Err(); err != nil {
			break
		}
		if !time.Now().Before(deadline) {
			err = ErrLockTimeout
			break
		}
		if t == nil {
			t = time.NewTimer(pause)
		} else {
			t.Reset(pause)
		}
		select {
		case <-t.C:
		case <-ctx.Done():
		}
		pause = min(2*pause, 2*time.Millisecond)
	}
	_ = f.Close()
	return nil, &os.PathError{Op: "flock", Path: path, Err: err}
}
