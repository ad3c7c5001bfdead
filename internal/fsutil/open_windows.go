//go:build windows

package fsutil

import (
	"os"

	"golang.org/x/sys/windows"
)

// Files that several processes share are opened with FILE_SHARE_DELETE
// besides read and write sharing (os.Open leaves it out): a handle without
// it makes every rename over the file and every removal of it fail with a
// sharing violation for as long as it stays open, so one reader would stop
// a writer from replacing the file, or a server from removing its lock.

// OpenNoBlock opens path for reading, letting others replace or remove it
// meanwhile. Windows has no FIFOs a plain open could block on; a directory
// opens (backup semantics) so that the caller's regular-file check, not the
// open, refuses it, as on Unix.
func OpenNoBlock(path string) (*os.File, error) {
	return openShared(path, windows.GENERIC_READ, windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS)
}

// OpenDir opens path for listing. Windows has no FIFO a directory could be
// swapped for.
func OpenDir(path string) (*os.File, error) { return os.Open(path) }

// OpenLockFile opens (creating) a lock file for locking with LockFileEx,
// which needs read or write access.
func OpenLockFile(path string) (*os.File, error) {
	return openShared(path, windows.GENERIC_READ|windows.GENERIC_WRITE, windows.OPEN_ALWAYS, 0)
}

func openShared(path string, access, disposition, flags uint32) (*os.File, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	share := uint32(windows.FILE_SHARE_READ | windows.FILE_SHARE_WRITE | windows.FILE_SHARE_DELETE)
	h, err := windows.CreateFile(p, access, share, nil, disposition, windows.FILE_ATTRIBUTE_NORMAL|flags, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}

// noBlockFlag: Windows has no FIFO a plain open could block on; pipes
// live under \\.\pipe\, never at a file's path (OpenRegular).
const noBlockFlag = 0

// NoFollow: os.OpenFile has no flag for it here; callers compare the file
// they opened with what Lstat finds at its name (and making a link needs
// a privilege on Windows).
const NoFollow = 0
