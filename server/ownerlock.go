package server

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// The owner lock beside serve's socket (PATH.lock): held for the server's
// life, it says "this process serves that socket", so a second server
// refuses to start even when the first one's socket file was deleted. The
// lock itself (flock, LockFileEx) is fsutil's; what it means here — who
// owns it, that a stopped owner removes the file, and that a lock on a
// removed file counts for nothing — is the server's.

// afterLockOpen, when set (tests), runs between opening the lock file and
// locking it: where another owner's exit can come in between.
var afterLockOpen func()

// lockOwner takes the owner lock at path without waiting: the open file
// that holds it, or fsutil.ErrLocked when another process holds it. A
// server that dies, however it dies, releases it.
//
// An owner that stops removes the file (unlockRemove), so the file we
// opened may be gone from path by the time we hold its lock: that lock
// locks nothing anyone else can find (a third would create a new file at
// path and lock that). The lock counts only while path is still the file
// locked; otherwise we start again on the new one.
func lockOwner(path string) (*os.File, error) {
	for range 100 {
		f, err := fsutil.OpenLockFile(path)
		if err != nil {
			return nil, err
		}
		if afterLockOpen != nil {
			afterLockOpen()
		}
		if err := fsutil.TryLock(f); err != nil {
			f.Close()
			return nil, err
		}
		if stillAt(f, path) {
			return f, nil
		}
		f.Close()
	}
	// Each round means another owner took the lock and stopped in the
	// meantime: 100 of them in a row is not a race, it is a loop.
	return nil, fmt.Errorf("lock %s: the file keeps being replaced", path)
}

// lockEndpoint takes the owner lock beside an endpoint (PATH.lock, beside
// a socket or a token endpoint file), held for the server's life: a second
// server refuses to start even when the first one's endpoint was deleted
// (and would otherwise be silently shadowed). Its errors name path; only
// another holder is ErrInUse — a directory we cannot write is not "in
// use", and saying so would send the user looking for a server that does
// not exist.
func lockEndpoint(path string) (lock *os.File, lockPath string, err error) {
	lockPath = path + ".lock"
	lock, err = lockOwner(lockPath)
	if errors.Is(err, fsutil.ErrLocked) {
		return nil, lockPath, fmt.Errorf("listen %s: %w (another server holds the lock %s)", path, ErrInUse, lockPath)
	}
	if errors.Is(err, fs.ErrNotExist) {
		// The lock is the first file made there: name what is missing,
		// not a lock file the person never named.
		if _, derr := os.Stat(filepath.Dir(path)); errors.Is(derr, fs.ErrNotExist) {
			return nil, lockPath, fmt.Errorf("listen %s: the directory %s does not exist", path, filepath.Dir(path))
		}
	}
	if err != nil {
		return nil, lockPath, fmt.Errorf("listen %s: lock %s: %w", path, lockPath, err)
	}
	return lock, lockPath, nil
}

// releaseEndpoint is a stopping server's clean-up: the published endpoint
// (a socket or a token endpoint file) is removed only while path is still
// the file it published (fi), then the lock file goes too, so nothing of a
// stopped server is left. A server that opened the lock just before cannot
// hold a lock on the removed file (lockOwner checks the path after
// locking).
func releaseEndpoint(path string, fi os.FileInfo, lock *os.File, lockPath string) {
	if now, err := os.Lstat(path); err == nil && os.SameFile(now, fi) {
		_ = os.Remove(path)
	}
	unlockRemove(lock, lockPath)
}

// unlockRemove releases the owner lock and removes its file (while still
// holding it, and only if path is still that file: see lockOwner; on
// Windows fsutil.OpenLockFile lets the file be deleted while open).
func unlockRemove(f *os.File, path string) {
	if stillAt(f, path) {
		_ = os.Remove(path)
	}
	f.Close()
}

// stillAt reports whether path is the open file f.
func stillAt(f *os.File, path string) bool {
	open, err := f.Stat()
	if err != nil {
		return false
	}
	now, err := os.Stat(path)
	return err == nil && os.SameFile(open, now)
}
