//go:build !unix && !windows

package fsutil

import (
	"context"
	"os"
	"sync"
	"time"
)

// LockContext serialises callers in this process on path (see Lock),
// giving up after wait with ErrLockTimeout or when ctx ends.
func LockContext(ctx context.Context, path string, wait time.Duration) (unlock func(), err error) {
	mu, _ := locks.LoadOrStore(path, &sync.Mutex{})
	m := mu.(*sync.Mutex)
	deadline := time.Now().Add(wait)
	for !m.TryLock() {
		if ctx.Err() != nil {
			return nil, &os.PathError{Op: "lock", Path: path, Err: ctx.Err()}
		}
		if time.Now().After(deadline) {
			return nil, &os.PathError{Op: "lock", Path: path, Err: ErrLockTimeout}
		}
		time.Sleep(time.Millisecond)
	}
	return m.Unlock, nil
}
