//go:build linux && !hermes_portable

package fsutil

import (
	"fmt"
	"os"
	"path/filepath"
)

// openedPath is the real path of the file f was opened from: the kernel's
// own answer for the open descriptor, else path with its symbolic links
// resolved (as the portable build always does, see openedpath_other.go).
func openedPath(f *os.File, path string) (string, error) {
	if p, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", f.Fd())); err == nil && filepath.IsAbs(p) {
		return p, nil
	}
	return filepath.EvalSymlinks(path)
}
