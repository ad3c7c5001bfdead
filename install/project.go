package install

import (
	"os"
	"path/filepath"
	"strings"
)

// ProjectDir is the project a hook file of dir's belongs to, where the
// agents read their project files: the nearest directory from dir upward
// that holds .git (a directory, or the file of a worktree or submodule),
// and inRepo true; dir itself, and false, outside a repository. A
// repository at or above home (dotfiles kept in git) is no project: the
// hook file there would be the user's own, read for every project.
func ProjectDir(dir, home string) (project string, inRepo bool) {
	dir = filepath.Clean(dir)
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			if home != "" && within(home, d) {
				return dir, false
			}
			return d, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir, false
		}
		d = parent
	}
}

// within reports whether path is dir or inside it.
func within(path, dir string) bool {
	rel, err := filepath.Rel(dir, filepath.Clean(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
