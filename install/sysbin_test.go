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
		abs("/"):                           root(fs.ModeDir | 0o755),
		abs("/usr"):                        root(fs.ModeDir | 0o755),
		abs("/usr/local"):                  root(fs.ModeDir | 0o755),
		abs("/usr/local/bin"):              root(fs.ModeDir | 0o755),
		abs("/usr/local/bin/hermes-hooks"): root(0o755),
		abs("/tmp"):                        root(fs.ModeDir | fs.ModeSticky | 0o777),
		abs("/tmp/hermes-hooks"):           {uid: 1000, mode: 0o755},
		abs("/home"):                       root(fs.ModeDir | 0o755),
		abs("/home/ann"):                   {uid: 1000, mode: fs.ModeDir | 0o755},
		abs("/home/ann/hermes-hooks"):      root(0o755), // root's file in a user's folder
		abs("/opt"):                        root(fs.ModeDir | 0o775),
		abs("/opt/hermes-hooks"):           root(0o755),
		abs("/srv"):                        root(fs.ModeDir | 0o755),
		abs("/srv/hh"):                     root(0o757),
		abs("/usr/local/bin/link"):         root(fs.ModeSymlink | 0o777), // -> /home/ann/hermes-hooks
		abs("/usr/local/bin/good-link"):    root(fs.ModeSymlink | 0o777), // -> /usr/local/bin/hermes-hooks
	}
	links := map[string]string{
		abs("/usr/local/bin/link"):      abs("/home/ann/hermes-hooks"),
		abs("/usr/local/bin/good-link"): abs("/usr/local/bin/hermes-hooks"),
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
		{abs("/usr/local/bin/hermes-hooks"), ""},
		{abs("/usr/local/bin/good-link"), ""},
		{abs("/tmp/hermes-hooks"), "the program " + abs("/tmp/hermes-hooks") + " is owned by uid 1000, not root"},
		{abs("/home/ann/hermes-hooks"), "the folder " + abs("/home/ann") + " is owned by uid 1000, not root"},
		{abs("/opt/hermes-hooks"), "the folder " + abs("/opt") + " is writable by its group"},
		{abs("/srv/hh"), "the program " + abs("/srv/hh") + " is writable by every user"},
		{abs("/usr/local/bin/link"), "the folder " + abs("/home/ann") + " is owned by uid 1000, not root"},
		{abs("/usr/local/bin/missing"), "file does not exist"},
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
	if errors.Is(checkSystemBinary(abs("/tmp/hermes-hooks"), lstat, eval), ErrNotChecked) {
		t.Error("a checked refusal reads as not checked")
	}
}
