package install

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// ProjectDir is the project a hook file of dir's belongs to, where the
// agents read their project files: the nearest directory from dir upward
// that holds .git (hookconfig.GitRoot: a directory, or the file of a
// worktree or submodule), and inRepo true; dir itself, and false,
// outside a repository. A
// repository at or above home (dotfiles kept in git) is no project: the
// hook file there would be the user's own, read for every project.
func ProjectDir(dir, home string) (project string, inRepo bool) {
	dir = filepath.Clean(dir)
	d := hookconfig.GitRoot(dir)
	if d == "" || home != "" && fsutil.InTree(home, d) {
		return dir, false
	}
	return d, true
}

// Root is the directory an agent's hook file belongs to: the home
// directory (user), project, or, when project is "", the project around
// the working directory (ProjectDir), with why it is that one.
func Root(user bool, project string) (dir, why string, err error) {
	if user {
		dir, err = os.UserHomeDir()
		return dir, "", err
	}
	dir = project
	if dir == "" {
		wd, err := os.Getwd()
		if err != nil {
			return "", "", err
		}
		home, _ := os.UserHomeDir()
		var inRepo bool
		dir, inRepo = ProjectDir(wd, home)
		why = "the current directory; it is in no git repository"
		if inRepo {
			why = "the root of the git repository holding the current directory"
		}
	}
	dir, err = filepath.Abs(dir)
	if err != nil {
		return "", "", err
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", "", fmt.Errorf("--project %s: not a directory", dir)
	}
	return dir, why, nil
}
