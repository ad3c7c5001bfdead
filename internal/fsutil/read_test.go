//go:build unix

package fsutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// ReadRegular reads regular files (through symbolic links) up to its
// bound, refuses everything else without blocking, and gives os's errors.
func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, make([]byte, 100_000), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(file, link); err != nil {
		t.Fatal(err)
	}
	for _, within := range []string{"", dir} {
		for _, c := range []struct {
			path string
			max  int64
			want string // the content, or a fragment of the error
		}{
			{file, 5, "=hello"},
			{link, 100, "=hello"},
			{big, 100_000, "=" + string(make([]byte, 100_000))},
			{file, 4, "larger than 4 bytes (5)"},
			{filepath.Join(dir, "none"), 10, "no such file"},
			{fifo, 10, "not a regular file (a FIFO)"},
			{dir, 10, "not a regular file (a directory)"},
		} {
			data, err := ReadRegular(c.path, within, c.max)
			got := "=" + string(data)
			if err != nil {
				got = err.Error()
			}
			if want, ok := strings.CutPrefix(c.want, "="); ok && (err != nil || string(data) != want) {
				t.Errorf("ReadRegular(%s, %q, %d) = %.40q, want the content", c.path, within, c.max, got)
			} else if !ok && (err == nil || !strings.Contains(got, c.want)) {
				t.Errorf("ReadRegular(%s, %q, %d) = %.60q, want an error with %q", c.path, within, c.max, got, c.want)
			}
		}
	}
	if _, err := ReadRegular(filepath.Join(dir, "none"), "", 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v, want fs.ErrNotExist", err)
	}
	if _, err := ReadRegular("/dev/zero", "", 10); !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), "a device") {
		t.Errorf("/dev/zero: %v", err)
	}
}

// WithoutPath drops the path a message already names from Go's and this
// package's errors about it, keeps what they wrap, and leaves an error
// about another path as it is.
func TestWithoutPath(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f.json")
	_, errMissing := os.Open(p)
	errFIFO := fmt.Errorf("%s: %w (a FIFO)", p, ErrNotRegular)
	_, errOther := os.Open(p + ".other")
	for _, c := range []struct {
		err  error
		want string
		is   error
	}{
		{errMissing, "no such file or directory", fs.ErrNotExist},
		{errFIFO, "not a regular file (a FIFO)", ErrNotRegular},
		{errOther, errOther.Error(), fs.ErrNotExist},
	} {
		got := WithoutPath(p, c.err)
		if got.Error() != c.want || !errors.Is(got, c.is) {
			t.Errorf("WithoutPath(%v) = %q (is %v: %v), want %q", c.err, got, c.is, errors.Is(got, c.is), c.want)
		}
	}
}
