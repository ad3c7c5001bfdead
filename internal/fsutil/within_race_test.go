//go:build unix

package fsutil

import (
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
)

// Attack: a process that may write in the checkout (a sandboxed agent, a
// group-writable clone) swaps a link the repository names between a file
// inside and one outside, so that the check passes on the inside target
// and the open follows the outside one. The file is opened as checked,
// beneath the root, so no read ever returns the outside file's bytes
// (with the link re-read after the open, as on builds without
// /proc/self/fd, thousands did).
func TestReadRegularSwappedLink(t *testing.T) {
	base := t.TempDir()
	root, out := filepath.Join(base, "repo"), filepath.Join(base, "out")
	for _, d := range []string{root, out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "in.yaml"), []byte("inside"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "secret"), []byte("SECRET"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "team.yaml")
	if err := os.Symlink("in.yaml", link); err != nil {
		t.Fatal(err)
	}
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		targets := []string{filepath.Join("..", "out", "secret"), "in.yaml"}
		tmp := filepath.Join(root, ".swap")
		for i := 0; !stop.Load(); i++ {
			os.Remove(tmp)
			if os.Symlink(targets[i%2], tmp) == nil {
				os.Rename(tmp, link)
			}
		}
	}()
	leaks, ok, refused := 0, 0, 0
	for i := 0; i < 50000; i++ {
		data, err := ReadRegular(link, root, 1<<10)
		switch {
		case err != nil:
			refused++
		case string(data) != "inside":
			leaks++
		default:
			ok++
		}
	}
	t.Logf("ok %d refused %d leaks %d", ok, refused, leaks)
	stop.Store(true)
	<-done
	if leaks > 0 {
		t.Fatalf("%d reads returned the outside file's bytes", leaks)
	}
}
