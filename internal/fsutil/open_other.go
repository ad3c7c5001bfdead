//go:build !unix && !windows

package fsutil

import "os"

// OpenNoBlock opens path for reading (no FIFOs to fear here).
func OpenNoBlock(path string) (*os.File, error) { return os.Open(path) }

// OpenDir opens path for listing (no FIFOs to fear here).
func OpenDir(path string) (*os.File, error) { return os.Open(path) }

// OpenLockFile opens (creating, mode 0600) a lock file for appending.
func OpenLockFile(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
}

// noBlockFlag: no FIFOs to fear here (OpenRegular).
const noBlockFlag = 0

// NoFollow: no such flag here; callers compare the file they opened with
// what Lstat finds at its name.
const NoFollow = 0
