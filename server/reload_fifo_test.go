//go:build unix

package server

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A config replaced by a FIFO (which nobody writes) or by a link to
// /dev/zero is refused as unreadable and the last good config stays; no
// refresh may block on it (opening a FIFO for reading waits for a writer,
// and the refresh holds the server's lock), and a good config put back
// afterwards is loaded.
func TestReloadSurvivesAConfigSwappedForAFIFO(t *testing.T) {
	for _, kind := range []string{"fifo", "devzero"} {
		t.Run(kind, func(t *testing.T) {
			f := start(t, "hooks: {}\n", nil, func(o *Options) { o.Settle = time.Millisecond })
			f.writeConfig(guardConfig(f))
			f.waitGeneration(2)
			if err := os.Remove(f.config); err != nil {
				t.Fatal(err)
			}
			var err error
			if kind == "fifo" {
				err = syscall.Mkfifo(f.config, 0o644)
			} else {
				err = os.Symlink("/dev/zero", f.config)
			}
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan struct{})
			go func() {
				defer close(done)
				// Twice a settle period apart: the second look finds
				// the file settled and goes on to read it.
				for range 3 {
					f.srv.Refresh()
					time.Sleep(5 * time.Millisecond)
				}
			}()
			select {
			case <-done:
			case <-time.After(deadline):
				// Unblock the stuck open so the test can end.
				if w, err := os.OpenFile(f.config, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
					w.Close()
				}
				t.Fatalf("a refresh blocked on a %s config", kind)
			}
			if r := f.dispatch("pre_tool_call", rmrf); r.status != 200 || !strings.Contains(string(r.body), `"block"`) {
				t.Fatalf("after the swap: %d %s", r.status, r.body)
			}
			os.Remove(f.config)
			f.writeConfig("hooks: {}\n")
			f.waitGeneration(3)
		})
	}
}
