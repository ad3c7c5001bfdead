package fsutil

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// maxLinks bounds the symbolic links followed for one path (Linux's
// ELOOP limit is 40).
const maxLinks = 40

// errLinkLoop refuses a path whose links do not end.
var errLinkLoop = errors.New("too many levels of symbolic links")

// checkWithin refuses path, before it is opened, when it or a symbolic
// link on the way leads outside root: each link is read, and what it
// names is checked by its text, so nothing outside root is looked at,
// opened or stat'd — opening can act (an automounted path, a device; on
// Windows a \\host\share path hands the server the user's NTLM hash) and
// an error would tell whether it exists. A part that does not exist
// inside root ends the walk: the open after it gives os's error. root is
// trusted (the project, the bundle); its own links are followed.
//
// real is root with its links resolved, and rel the path below it that
// the walk resolved path to: what is opened beneath real (openBeneath),
// so that a link changed after this check cannot lead the open outside.
// Within is checkWithin's verdict alone, for a caller that must refuse
// path before it looks at it any other way (a stat to compare it with
// another file).
func Within(path, root string) error {
	_, _, err := checkWithin(filepath.Clean(path), root)
	return err
}

func checkWithin(path, root string) (real, rel string, err error) {
	given, err := filepath.Abs(root)
	if err != nil {
		return "", "", err
	}
	if real, err = filepath.EvalSymlinks(given); err != nil {
		return "", "", err
	}
	rel, err = walkWithin(path, given, real)
	return real, rel, err
}

// walkWithin is checkWithin's walk, below root as given and as resolved
// (real).
func walkWithin(path, given, real string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	rest, ok := relWithin(real, abs)
	if !ok {
		if rest, ok = relWithin(given, abs); !ok {
			return "", fmt.Errorf("%s: %w", path, ErrOutside)
		}
	}
	cur, links := real, 0
	for len(rest) > 0 {
		part := rest[0]
		rest = rest[1:]
		next := filepath.Join(cur, part)
		if _, inside := relWithin(real, next); !inside {
			return "", fmt.Errorf("%s: %w: it leads to %s", path, ErrOutside, next)
		}
		fi, err := os.Lstat(next)
		if err != nil {
			// The open says why.
			return below(real, filepath.Join(append([]string{next}, rest...)...)), nil
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			cur = next
			continue
		}
		if links++; links > maxLinks {
			return "", fmt.Errorf("%s: %w", path, errLinkLoop)
		}
		target, err := os.Readlink(next)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(cur, target)
		}
		tail, inside := relWithin(real, filepath.Clean(target))
		if !inside {
			return "", fmt.Errorf("%s: %w: it leads to %s", path, ErrOutside, filepath.Clean(target))
		}
		cur, rest = real, append(tail, rest...)
	}
	return below(real, cur), nil
}

// below is abs (inside real) as a path relative to real ("." for real
// itself).
func below(real, abs string) string {
	rel, err := filepath.Rel(real, abs)
	if err != nil {
		return "."
	}
	return rel
}

// relWithin is abs's path below dir as its parts ([] for dir itself),
// and whether abs lies there, judged by text alone.
func relWithin(dir, abs string) ([]string, bool) {
	rel, err := filepath.Rel(dir, abs)
	if err != nil || filepath.IsAbs(rel) || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, false
	}
	if rel == "." {
		return nil, true
	}
	return strings.Split(rel, string(filepath.Separator)), true
}
