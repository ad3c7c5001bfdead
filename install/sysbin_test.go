package install

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
)

// TestSystemBinary: a managed entry's program must be one only root can
// replace, as written and with its links followed; each refusal names the
// first path anyone else could change and why.
func TestSystemBinary(t *testing.T) {
	root := func(m fs.FileMode) fileOwner { return fileOwner{uid: 0, mode: m} }
	base := map[string]fileOwner{
		"/":                           root(fs.ModeDir | 0o755),
		"/usr":                        root(fs.ModeDir | 0o755),
		"/usr/local":                  root(fs.ModeDir | 0o755),
		"/usr/local/bin":              root(fs.ModeDir | 0o755),
		"/usr/local/bin/hermes-hooks": root(0o755),
		"/tmp":                        root(fs.ModeDir | fs.ModeSticky | 0o777),
		"/tmp/hermes-hooks":           {uid: 1000, mode: 0o755},
		"/home":                       root(fs.ModeDir | 0o755),
		"/home/ann":                   {uid: 1000, mode: fs.ModeDir | 0o755},
		"/home/ann/hermes-hooks":      root(0o755), // root's file in a user's folder
		"/opt":                        root(fs.ModeDir | 0o775),
		"/opt/hermes-hooks":           root(0o755),
		"/srv":                        root(fs.ModeDir | 0o755),
		"/srv/hh":                     root(0o757),
		"/usr/local/bin/link":         root(fs.ModeSymlink | 0o777), // -> /home/ann/hermes-hooks
		"/usr/local/bin/good-link":    root(fs.ModeSymlink | 0o777), // -> /usr/local/bin/hermes-hooks
	}
	links := map[string]string{
		"/usr/local/bin/link":      "/home/ann/hermes-hooks",
		"/usr/local/bin/good-link": "/usr/local/bin/hermes-hooks",
	}
	lstat := func(p string) (fileOwner, error) {
		fo, ok := base[p]
		if !ok {
			return fileOwner{}, fs.ErrNotExist
		}
		return fo, nil
	}
	eval := func(p string) (string, error) {
		if _, ok := base[p]; !ok {
			return "", fs.ErrNotExist
		}
		if l, ok := links[p]; ok {
			return l, nil
		}
		return p, nil
	}
	for _, c := range []struct{ path, err string }{
		{"/usr/local/bin/hermes-hooks", ""},
		{"/usr/local/bin/good-link", ""},
		{"/tmp/hermes-hooks", "the program /tmp/hermes-hooks is owned by uid 1000, not root"},
		{"/home/ann/hermes-hooks", "the folder /home/ann is owned by uid 1000, not root"},
		{"/opt/hermes-hooks", "the folder /opt is writable by its group"},
		{"/srv/hh", "the program /srv/hh is writable by every user"},
		{"/usr/local/bin/link", "the folder /home/ann is owned by uid 1000, not root"},
		{"/usr/local/bin/missing", "file does not exist"},
		{"hermes-hooks", "not an absolute path"},
	} {
		err := checkSystemBinary(c.path, lstat, eval)
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%s: %v, want no error", c.path, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("%s: %v, want an error saying %q", c.path, err, c.err)
		}
	}
	if errors.Is(checkSystemBinary("/tmp/hermes-hooks", lstat, eval), ErrNotChecked) {
		t.Error("a checked refusal reads as not checked")
	}
}
