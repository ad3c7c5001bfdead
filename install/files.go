package install

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// maxFileSize bounds what install reads of a file it edits, compares or
// keeps: hook files and Hermes' config are a few KiB; a settings path
// that names /dev/zero (a symbolic link to it, say) must not run the
// process out of memory.
const maxFileSize = 8 << 20

// readBounded reads a file install edits or compares: a regular file of at
// most maxFileSize, opened without blocking (a FIFO nobody writes would
// hold install forever). An absent file is an error fs.ErrNotExist
// matches; anything but a regular file, or a larger one, is an error
// naming the path and why.
func readBounded(path string) ([]byte, error) {
	data, err := fsutil.ReadRegular(path, "", maxFileSize)
	var tl *fsutil.TooLargeError
	switch {
	case err == nil || errors.Is(err, fs.ErrNotExist):
		return data, err
	case errors.Is(err, fsutil.ErrNotRegular), errors.As(err, &tl):
		return nil, fmt.Errorf("%v; not read, nothing changed", err)
	}
	return nil, err
}

// resolve is path with its symbolic links followed as far as they lead
// to something: a file that does not exist yet is written where its
// folder really is.
func resolve(path string) string {
	if real, err := filepath.EvalSymlinks(path); err == nil {
		return real
	}
	dir := filepath.Dir(path)
	if dir == path {
		return path
	}
	return filepath.Join(resolve(dir), filepath.Base(path))
}

// Within returns path with its symbolic links followed (resolve), or an
// error when that lies outside root (itself resolved): a project's hook
// file is the repository's to name, and a link there (.claude ->
// ~/.ssh, settings.json -> ~/.bashrc) must not make install write a
// file of yours elsewhere.
func Within(root, path string) (string, error) {
	real, top := resolve(path), resolve(root)
	if fsutil.InTree(real, top) {
		return real, nil
	}
	return "", fmt.Errorf("%s: a symbolic link leads it to %s, outside the project %s; not changed (install writes a project's files only inside it: edit that file by hand, or install with --user)", path, real, top)
}

// Target returns path, a file install writes under root; for a project
// (not user), only once it is known to stay inside root with its links
// followed (Within).
func Target(root, path string, user bool) (string, error) {
	if user {
		return path, nil
	}
	_, err := Within(root, path)
	return path, err
}
