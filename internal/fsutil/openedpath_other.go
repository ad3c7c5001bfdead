//go:build !linux || hermes_portable

package fsutil

import (
	"os"
	"path/filepath"
)

// openedPath is the real path of the file f was opened from: path with its
// symbolic links resolved (no /proc/self/fd to ask here).
func openedPath(_ *os.File, path string) (string, error) {
	return filepath.EvalSymlinks(path)
}
