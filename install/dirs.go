package install

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The folders install makes for a file, and the ones uninstall takes away
// again. Install records which folders it created (Plan.CreatedDirs,
// ScriptsPlan.CreatedDirs; the CLI keeps them in the registry's record,
// Record.CreatedDirs), and uninstall removes, of the folders between the
// file and its root that it leaves empty, only those (OwnDirs): without
// the record it removes none.

// removeEmptyDirs removes dir and its parents while they are empty and
// install created them (own: as recorded, links followed), stopping below
// root (never root itself, nor anything outside it) and at the first
// directory install did not create; it returns the directories removed;
// it stops at a symbolic link. An empty directory that was there before
// install (~/Documents, ~/.cursor) is the user's: "empty" is no proof
// that nobody wants it.
func removeEmptyDirs(dir, root string, own []string) []string {
	if root == "" {
		return nil
	}
	var removed []string
	for {
		rel, err := filepath.Rel(root, dir)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
			return removed
		}
		if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
			// A symbolic link that led to the file (.qwen -> shared)
			// is the repository's, not a folder install made: os.Remove
			// would take the link itself.
			return removed
		}
		if !slices.Contains(own, resolve(dir)) {
			return removed
		}
		if os.Remove(dir) != nil { // fails unless empty
			return removed
		}
		removed = append(removed, dir)
		dir = filepath.Dir(dir)
	}
}

// mkdirAll is os.MkdirAll returning the directories it created, links
// followed, outermost first: what uninstall may remove again
// (Plan.CreatedDirs). One another program creates meanwhile is not
// counted.
func mkdirAll(dir string, perm fs.FileMode) ([]string, error) {
	var missing []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) {
			break
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	var created []string
	for i := len(missing) - 1; i >= 0; i-- {
		err := os.Mkdir(missing[i], perm)
		switch {
		case err == nil:
			created = append(created, resolve(missing[i]))
		case !errors.Is(err, fs.ErrExist):
			return created, err
		}
	}
	// What is there already (a link to a folder, one made meanwhile) must
	// still be a folder.
	return created, os.MkdirAll(dir, perm)
}
