//go:build unix

package repoid

import (
	"path/filepath"
	"syscall"
	"testing"
)

// A FIFO planted as a checkout's git config or commondir is skipped, not
// waited on: Find runs on the dispatch path.
func TestFindDoesNotBlockOnFIFOs(t *testing.T) {
	root := t.TempDir()
	a := filepath.Join(root, "a")
	write(t, filepath.Join(a, ".git", "HEAD"), "")
	if err := syscall.Mkfifo(filepath.Join(a, ".git", "config"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	w := filepath.Join(root, "w")
	write(t, filepath.Join(w, ".git"), "gitdir: "+filepath.Join(root, "gd")+"\n")
	write(t, filepath.Join(root, "gd", "HEAD"), "")
	if err := syscall.Mkfifo(filepath.Join(root, "gd", "commondir"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, ok := Find(a); !ok || len(r.IDs) != 1 {
		t.Errorf("config a FIFO: %+v %v", r, ok)
	}
	if r, ok := Find(w); !ok || r.CommonDir != filepath.Join(root, "gd") {
		t.Errorf("commondir a FIFO: %+v %v", r, ok)
	}
}

// A FIFO planted as a checkout's .git/index is not waited on: uninstall
// asks Tracked, which cannot tell and says so (the file is then kept).
func TestTrackedDoesNotBlockOnFIFO(t *testing.T) {
	root := t.TempDir()
	write(t, filepath.Join(root, ".git", "HEAD"), "")
	if err := syscall.Mkfifo(filepath.Join(root, ".git", "index"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	if tracked, err := Tracked(filepath.Join(root, "f.json")); err == nil {
		t.Errorf("a FIFO index: %v, no error", tracked)
	}
}

// A FIFO planted as a checkout's .git does not hold MainTop either.
func TestMainTopDoesNotBlockOnFIFO(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "fifo")
	write(t, filepath.Join(dir, "x"), "")
	if err := syscall.Mkfifo(filepath.Join(dir, ".git"), 0o644); err != nil {
		t.Skip("mkfifo:", err)
	}
	if got, ok := MainTop(dir); ok {
		t.Errorf("MainTop(fifo) = %q, want none", got)
	}
}
