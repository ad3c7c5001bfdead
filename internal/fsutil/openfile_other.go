//go:build !windows

package fsutil

import "os"

// OpenFile is os.OpenFile: a file open here never stops another process
// from renaming or removing it (see openfile_windows.go).
func OpenFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(path, flag, perm)
}

// ReadFile is os.ReadFile (see openfile_windows.go).
func ReadFile(path string) ([]byte, error) { return os.ReadFile(path) }
