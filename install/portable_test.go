package install

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
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

// permBits are the permission bits a system keeps of the mode a file is
// written with. Windows keeps one: a file without the owner's write bit is
// read-only (Go reports 0444, else 0666); who may read it is its access
// list, inherited from its folder, which no mode sets.
var permBits = map[bool]fs.FileMode{true: 0o200, false: fs.ModePerm}[runtime.GOOS == "windows"]

// checkPerm fails the test unless path has the permission bits want, of
// those the system keeps (permBits).
func checkPerm(t *testing.T, what, path string, want fs.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Errorf("%s: %v", what, err)
		return
	}
	if got := fi.Mode().Perm(); got&permBits != want&permBits {
		t.Errorf("%s mode %v, want %v (of the bits %v this system keeps)", what, got, want, permBits)
	}
}
