// Package repoid tells which repository a checkout is, by reading git's
// own files: the .git entry (a directory, or a file naming the git
// directory as worktrees and submodules have), the commondir file a
// worktree's git directory holds, and the shared config's remote URLs. It
// never starts git: it runs on the dispatch path, once per event.
//
// An identity is a set of strings (IDs); two checkouts are of one
// repository when their sets share a member. The IDs are
//
//   - "git:" + the absolute common git directory: every worktree of one
//     local repository shares it, and so does a clone whose remote is that
//     repository's path (git clone A B records A's path as B's origin);
//   - "url:" + each remote URL, normalized (scheme, credentials, default
//     port, trailing slash and ".git" dropped; the host lower-cased), so
//     that the https and ssh spellings of one hosted repository meet.
//
// An identity is not a proof: anyone who can write a directory can write a
// .git file or a config that names any repository. Package consent uses it
// only to find approvals given in another checkout, and still compares the
// content of every file a hook runs with what was approved.
package repoid

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// maxGitFile bounds every read of git's files (a .git file, commondir, a
// config): a hostile checkout must not make a dispatch read a huge file.
const maxGitFile = 1 << 20

// maxDepth bounds the walk up from a project directory to its .git.
const maxDepth = 64

// Repo is a checkout of a git repository.
type Repo struct {
	// Top is the directory holding the .git entry: the worktree's root.
	Top string
	// CommonDir is the git directory the worktrees share (absolute).
	CommonDir string
	// IDs identify the repository (see the package comment), sorted.
	IDs []string
}

// Shares reports whether ids and r's IDs have a member in common.
func (r Repo) Shares(ids []string) bool {
	for _, id := range ids {
		if slices.Contains(r.IDs, id) {
			return true
		}
	}
	return false
}

// Find returns the repository whose worktree holds dir (dir itself or a
// parent with a .git entry), or false when dir is in none.
func Find(dir string) (Repo, bool) {
	return find(dir, func(string) {})
}

// find is Find, telling seen every file whose change would change its
// answer, before it reads that file (Cache stamps it there).
func find(dir string, seen func(path string)) (Repo, bool) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return Repo{}, false
	}
	for range maxDepth {
		if r, ok := at(dir, seen); ok {
			return r, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return Repo{}, false
}

// at reads the repository whose .git entry is in top, if any.
func at(top string, seen func(string)) (Repo, bool) {
	seen(filepath.Join(top, ".git"))
	gitDir, ok := gitDirOf(top)
	if !ok {
		return Repo{}, false
	}
	seen(filepath.Join(gitDir, "commondir"))
	common := commonDirOf(gitDir)
	seen(filepath.Join(common, "config"))
	r := Repo{Top: top, CommonDir: common}
	ids := []string{"git:" + canonical(common)}
	if data, err := readSmall(filepath.Join(common, "config")); err == nil {
		for _, u := range Remotes(data) {
			if id := remoteID(u, top, seen); id != "" {
				ids = append(ids, id)
			}
		}
	}
	slices.Sort(ids)
	r.IDs = slices.Compact(ids)
	return r, true
}

// gitDirOf is the git directory of the worktree rooted at top: top/.git
// when it is a directory, the one a .git file names otherwise.
func gitDirOf(top string) (string, bool) {
	dotGit := filepath.Join(top, ".git")
	fi, err := os.Stat(dotGit)
	switch {
	case err != nil:
		return "", false
	case fi.IsDir():
		return dotGit, true
	case !fi.Mode().IsRegular():
		return "", false
	}
	data, err := readSmall(dotGit)
	if err != nil {
		return "", false
	}
	gd, ok := ParseGitFile(data)
	if !ok {
		return "", false
	}
	if !filepath.IsAbs(gd) {
		gd = filepath.Join(top, gd)
	}
	return filepath.Clean(gd), true
}

// commonDirOf is the directory a worktree's git directory shares with the
// main worktree (its commondir file), or gitDir itself.
func commonDirOf(gitDir string) string {
	data, err := readSmall(filepath.Join(gitDir, "commondir"))
	if err != nil {
		return gitDir
	}
	c := strings.TrimSpace(string(firstLine(data)))
	if c == "" {
		return gitDir
	}
	if !filepath.IsAbs(c) {
		c = filepath.Join(gitDir, c)
	}
	return filepath.Clean(c)
}

// canonical resolves symbolic links where it can, so that one directory
// reached two ways is one ID.
func canonical(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// ParseGitFile reads a .git file ("gitdir: PATH"): the path it names, or
// false when data is not one.
func ParseGitFile(data []byte) (string, bool) {
	line := firstLine(bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF}))
	rest, ok := bytes.CutPrefix(line, []byte("gitdir:"))
	if !ok {
		return "", false
	}
	p := strings.TrimSpace(string(rest))
	if p == "" || strings.ContainsRune(p, 0) {
		return "", false
	}
	return p, true
}

func firstLine(data []byte) []byte {
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		data = data[:i]
	}
	return bytes.TrimSuffix(data, []byte("\r"))
}

// readSmall reads a regular file, at most maxGitFile bytes of it. It opens
// without blocking: a FIFO planted as a checkout's git config or commondir
// would otherwise hang the dispatch that asks which repository it is.
func readSmall(path string) ([]byte, error) {
	f, err := fsutil.OpenNoBlock(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, os.ErrInvalid
	}
	return io.ReadAll(io.LimitReader(f, maxGitFile))
}
