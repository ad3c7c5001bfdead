package repoid

import (
	"os"
	"path/filepath"
)

// MainTop is the top of the main checkout of the repository whose
// worktree holds dir: the nearest folder at or above dir with a .git
// entry when that entry is a directory, and, when it is a file naming
// COMMON/worktrees/NAME (a linked worktree, as git worktree add writes
// it), COMMON's parent. Any other .git entry (a submodule's .git file, a
// file of another layout, one that cannot be read) has none, and a .git
// nearer than a good one decides, so that a stray file does not borrow
// the repository above it.
//
// Codex trusts a linked worktree that has no [projects] entry of its own
// by its main checkout's (openai/codex, resolve_root_git_project_for_trust,
// which reads git's layout the same way and reads no file but the .git
// file). MainTop reads that file only, bounded and without blocking: the
// folder it names is not opened, so a worktree cannot make it read outside.
func MainTop(dir string) (string, bool) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	for range maxDepth {
		dotGit := filepath.Join(dir, ".git")
		if _, err := os.Stat(dotGit); err == nil {
			gd, ok := gitDirOf(dir)
			switch {
			case !ok:
				return "", false
			case gd == dotGit: // a directory: the main checkout
				return dir, true
			}
			return mainOfLinked(gd)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", false
}

// mainOfLinked is the main checkout's top for a linked worktree whose
// .git file names gd (gitDirOf's, absolute and clean).
func mainOfLinked(gd string) (string, bool) {
	worktrees := filepath.Dir(gd)
	if filepath.Base(worktrees) != "worktrees" {
		return "", false
	}
	common := filepath.Dir(worktrees)
	main := filepath.Dir(common)
	if main == common {
		return "", false
	}
	return main, true
}
