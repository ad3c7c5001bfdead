package repoid

import (
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
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
		if fi, err := os.Stat(dotGit); err == nil {
			if fi.IsDir() {
				return dir, true
			}
			return mainOfLinked(dir, dotGit)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", false
}

// mainOfLinked is the main checkout's top for the worktree at top whose
// .git file is dotGit, read as Codex reads it (codexGitFile), not as git
// or Find does: where the two differ, Codex finds no main checkout and
// trusts nothing, so doctor must not either.
func mainOfLinked(top, dotGit string) (string, bool) {
	data, err := readSmall(dotGit)
	if err != nil || len(data) >= maxGitFile {
		return "", false
	}
	gd, ok := codexGitFile(data)
	if !ok {
		return "", false
	}
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(top, gd)
	}
	gd = filepath.Clean(gd)
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

// codexGitFile is the directory a .git file names as Codex reads one: the
// whole file is text (invalid UTF-8 names none), trimmed of white space,
// then "gitdir:" and the rest trimmed again. No byte order mark is
// skipped (Rust's trim keeps U+FEFF), and a line after the first is part
// of the path, which then names no worktree.
func codexGitFile(data []byte) (string, bool) {
	if !utf8.Valid(data) {
		return "", false
	}
	rest, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	p := strings.TrimSpace(rest)
	if !ok || p == "" || strings.ContainsRune(p, 0) {
		return "", false
	}
	return p, true
}
