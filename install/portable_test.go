package install

import (
	"os"
	"path/filepath"
	"testing"
)

// The tests' paths and modes on every system the package runs on.

// volume is the drive the tests' made-up absolute paths are on: "" on
// Unix; on Windows, where "/p" names no absolute path (it lacks a drive),
// the temporary folder's.
var volume = filepath.VolumeName(os.TempDir())

// abs is the Unix-style absolute path p as an absolute path of this
// system, not cleaned (a path that climbs out with ".." keeps it): p itself
// on Unix, C:\p on Windows.
func abs(p string) string { return volume + filepath.FromSlash(p) }

// setHome makes dir the home folder os.UserHomeDir returns: $HOME, and
// %USERPROFILE%, which is what it reads on Windows.
func setHome(t *testing.T, dir string) {
	t.Setenv("HOME", dir)
	t.Setenv("USERPROFILE", dir)
}
