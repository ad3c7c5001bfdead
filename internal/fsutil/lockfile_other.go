//go:build !unix && !windows

package fsutil

import "os"

// TryLock cannot lock where neither flock nor LockFileEx exists: it
// succeeds without excluding anyone (ErrLocked is never reported here).
func TryLock(f *os.File) error { return nil }
