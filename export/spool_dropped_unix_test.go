//go:build unix

package export

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Attack: a local process puts a FIFO, or a link to another file of the
// user's, at the dropped file's name. A drop neither hangs on the FIFO
// (the one-shot process that drops a record has an agent waiting for its
// answer) nor writes the count through the link.
func TestSpoolDroppedFIFOAndLink(t *testing.T) {
	sp := Spool{Dir: t.TempDir()}
	p := filepath.Join(sp.Dir, "dropped")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skip("no FIFO here:", err)
	}
	done := make(chan int64, 1)
	go func() {
		sp.addDropped(1)
		done <- sp.Dropped()
	}()
	select {
	case got := <-done:
		if got != 0 {
			t.Errorf("Dropped = %d from a FIFO", got)
		}
	case <-time.After(hang):
		t.Fatal("a drop hung on a FIFO")
	}
	os.Remove(p)
	other := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(other, []byte("my notes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(other, p); err != nil {
		t.Fatal(err)
	}
	sp.addDropped(1)
	if b, _ := os.ReadFile(other); string(b) != "my notes\n" {
		t.Errorf("the count was written through a link: %q", b)
	}
}

// Attack: a dangling link at the dropped file's name. A drop creates
// nothing where it points (it did, then refused the file it had made: a
// local process could have the user's rights make a file anywhere).
func TestSpoolDroppedDanglingLink(t *testing.T) {
	sp := Spool{Dir: t.TempDir()}
	target := filepath.Join(t.TempDir(), "made-by-a-drop")
	if err := os.Symlink(target, sp.droppedPath()); err != nil {
		t.Fatal(err)
	}
	sp.addDropped(1)
	if _, err := os.Lstat(target); !os.IsNotExist(err) {
		t.Errorf("a drop created the target of a dangling link at its counter's name (%v)", err)
	}
	if got := sp.Dropped(); got != 0 {
		t.Errorf("Dropped = %d through a link", got)
	}
}
