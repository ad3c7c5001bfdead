//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package consent

import (
	"os"
	"sync"
)

// Without flock, writers in one process are serialised by an in-process
// lock per lock-file path. This lock is separate from every other lock of
// the package, so approving while a Policy holds its own locks cannot
// deadlock. Cross-process exclusion is not available on these systems.
var (
	fileLocksMu sync.Mutex
	fileLocks   = map[string]*sync.Mutex{}
)

func lockFile(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, err
	}
	_ = f.Close()
	fileLocksMu.Lock()
	mu := fileLocks[path]
	if mu == nil {
		mu = &sync.Mutex{}
		fileLocks[path] = mu
	}
	fileLocksMu.Unlock()
	mu.Lock()
	return mu.Unlock, nil
}

// syncDir is a no-op where directories cannot be opened for syncing.
func syncDir(string) error { return nil }

// accessible approximates access(2) with the permission bits.
func accessible(path string, exec bool) bool {
	fi, err := os.Stat(path)
	if err != nil {
		return false
	}
	if exec {
		return fi.Mode().Perm()&0o111 != 0
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	_ = f.Close()
	return true
}

func openNoBlock(path string) (*os.File, error) { return os.Open(path) }
