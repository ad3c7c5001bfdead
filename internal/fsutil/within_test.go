//go:build unix

package fsutil

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// Attack (issue 35): a repository names a file outside itself — by a
// path of its own (../../x, /abs, on Windows \\host\share\x: an SMB
// connection that hands over the user's NTLM hash) or by a committed
// symbolic link. ReadRegular refused it only after opening it, and
// opening can act (an automounted /net/host path, /dev/watchdog when run
// as root) and tells whether it exists. So the path is followed link by
// link inside the root, and refused before anything outside is touched:
// a missing file outside is "outside the project", not "no such file".
func TestReadRegularRefusesOutsideBeforeOpening(t *testing.T) {
	base := t.TempDir()
	root, out := filepath.Join(base, "repo"), filepath.Join(base, "out")
	for _, d := range []string{filepath.Join(root, "sub"), filepath.Join(out, "inner")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(root, "sub", "f"), filepath.Join(out, "secret")} {
		if err := os.WriteFile(f, []byte("hello"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"dangling-out": filepath.Join(out, "missing"),
		"rel-out":      "../out/secret",
		"dir-out":      out,
		"abs-in":       filepath.Join(root, "sub", "f"),
		"chain":        "chain2",
		"chain2":       "sub/../sub/f",
		"loop":         "loop2",
		"loop2":        "loop",
		"dot-dot":      "sub/../../repo/sub/f",
		"deep":         filepath.Join(out, "inner"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	rootLink := filepath.Join(base, "repo-link")
	if err := os.Symlink(root, rootLink); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		path, within string
		want         error // nil: reads "hello"
	}{
		{filepath.Join(out, "missing"), root, ErrOutside},
		{filepath.Join(root, "sub", "..", "..", "out", "missing"), root, ErrOutside},
		{filepath.Join(root, "dangling-out"), root, ErrOutside},
		{filepath.Join(root, "rel-out"), root, ErrOutside},
		{filepath.Join(root, "dir-out", "missing"), root, ErrOutside},
		{filepath.Join(root, "missing"), root, fs.ErrNotExist},
		// Not cleaned, deep/.. is out to the kernel, and out/secret exists:
		// the path is read as it was checked, cleaned (root/secret).
		{root + "/deep/../secret", root, fs.ErrNotExist},
		{filepath.Join(root, "sub", "missing", "x"), root, fs.ErrNotExist},
		{filepath.Join(root, "abs-in"), root, nil},
		{filepath.Join(root, "chain"), root, nil},
		{filepath.Join(root, "dot-dot"), root, nil},
		{filepath.Join(rootLink, "sub", "f"), rootLink, nil},
		{filepath.Join(root, "sub", "f"), rootLink, nil},
	} {
		data, err := ReadRegular(c.path, c.within, 1<<10)
		switch {
		case c.want == nil && (err != nil || string(data) != "hello"):
			t.Errorf("ReadRegular(%s, %s) = %q, %v; want hello", c.path, c.within, data, err)
		case c.want != nil && !errors.Is(err, c.want):
			t.Errorf("ReadRegular(%s, %s) = %q, %v; want %v", c.path, c.within, data, err, c.want)
		}
	}
	// A loop of links inside the root ends in an error, not a hang.
	if _, err := ReadRegular(filepath.Join(root, "loop"), root, 1<<10); err == nil {
		t.Error("a loop of links read")
	}
}
