//go:build unix

package cmdpin

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A hook program that is a FIFO (planted by a repository at the path an
// approved command line names) holds up nothing: Resolve runs on every
// dispatch, and reading its #! line must not wait for a writer.
func TestResolve_FIFOProgramDoesNotHang(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "hook"), 0o755); err != nil {
		t.Fatal(err)
	}
	done := make(chan Target, 1)
	go func() { done <- Resolve(Command{Text: "./hook", Dir: dir, Env: []string{"PATH=/usr/bin:/bin"}}) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second): // a hang guard only
		t.Fatal("Resolve waited on a FIFO named as the hook's program")
	}
}
