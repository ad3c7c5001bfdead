//go:build !windows

package fsutil

import "os"

// replace renames old over path: atomic on POSIX systems, whoever has path
// open (see replace_windows.go for Windows).
func replace(old, path string) error { return os.Rename(old, path) }
