//go:build !unix && !windows

package fsutil

import (
	"os"
	"sync"
	"time"
)

// Without flock, an in-process mutex per path serialises writers of this
// process only; other processes are not excluded.
var locks sync.Map

// Lock serialises callers in this process on path.
func Lock(path string) (unlock func(), err error) {
	mu, _ := locks.LoadOrStore(path, &sync.Mutex{})
	m := mu.(*sync.Mutex)
	m.Lock()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err == nil {
		_ = f.Close()
	}
	return m.Unlock, nil
}

// SyncDir is a no-op where directories cannot be synced.
func SyncDir(string) error { return nil }

// FlockWithin serialises callers in this process on f's path, giving up
// after wait with ErrLockTimeout; unlock keeps f open.
func FlockWithin(f *os.File, wait time.Duration) (unlock func(), err error) {
	mu, _ := locks.LoadOrStore(f.Name(), &sync.Mutex{})
	m := mu.(*sync.Mutex)
	deadline := time.Now().Add(wait)
	for !m.TryLock() {
		if time.Now().After(deadline) {
			return nil, &os.PathError{Op: "lock", Path: f.Name(), Err: ErrLockTimeout}
		}
		time.Sleep(time.Millisecond)
	}
	return m.Unlock, nil
}
