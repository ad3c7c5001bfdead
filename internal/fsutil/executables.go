package fsutil

import (
	"os"
	"path/filepath"
)

// Executables lists the files of dir whose name want accepts, in name
// order: the executable regular files (symbolic links followed) in files,
// the others in skipped. isDir is false when dir is not a folder (nothing
// is listed); err is the folder's listing error.
func Executables(dir string, want func(name string) bool) (files, skipped []string, isDir bool, err error) {
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return nil, nil, false, nil
	}
	list, err := os.ReadDir(dir)
	if err != nil {
		return nil, nil, true, err
	}
	for _, d := range list {
		if !want(d.Name()) {
			continue
		}
		f := filepath.Join(dir, d.Name())
		if fi, err := os.Stat(f); err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm()&0o111 == 0 {
			skipped = append(skipped, f)
			continue
		}
		files = append(files, f)
	}
	return files, skipped, true, nil
}
