//go:build linux

package attacktest

import (
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
)

// A loop swaps an approved script between its approved content and content
// nobody approved while one-shot dispatches run: not one dispatch may run
// the unapproved content (issue 12, item 4). The check and the start used
// to be separate steps, by name: the old code ran the swapped-in script in
// about one dispatch in three. Both ways of swapping are tried: an atomic
// rename of a complete file (what git checkout and editors do) and an
// in-place rewrite of the same file.
func TestSwappedScriptNeverRunsUnapproved(t *testing.T) {
	// On the portable path (macOS, the BSDs) the interpreter used to reopen
	// the script by name after the check: 63 of 750 dispatches ran a
	// swapped-in script. It now reads an unlinked copy through /dev/fd/3.
	// 300 a mode: at that rate the old code would have run it in about 25
	// (a chance of none near 1e-11), and 750 took half a minute of make
	// test on a two-core machine.
	const perMode = 300 // 600 dispatches in all
	for _, mode := range []string{"rename", "in-place"} {
		t.Run(mode, func(t *testing.T) {
			e := newEnv(t)
			good := "#!/bin/sh\necho '{\"action\": \"block\", \"message\": \"approved guard\"}'\n"
			bad := "#!/bin/sh\necho x >> \"$WORK/EVIL\"\necho '{}'\n"
			e.write("hook.sh", good, 0o755)
			e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+e.path("hook.sh")+"\n", 0o644)
			e.run("", "approve", e.path("hook.sh"))

			stop := make(chan struct{})
			// finished: a dispatch is done. Every 16th time the swapper puts
			// the approved content back, it leaves it in place until a
			// dispatch has run it, so that some do however the scheduler
			// spreads the swaps under load (in-place, a busy machine once
			// saw none of 750: each read met a swap).
			finished := make(chan struct{}, 1)
			var ran, blocked atomic.Int64
			var swaps atomic.Int64
			swapped := make(chan struct{})
			go func() {
				defer close(swapped)
				tmp := e.path("hook.tmp")
				for i := 0; ; i++ {
					select {
					case <-stop:
						return
					default:
					}
					content := []byte(good)
					if i%2 == 0 {
						content = []byte(bad)
					}
					if mode == "rename" {
						if os.WriteFile(tmp, content, 0o755) == nil {
							_ = os.Chmod(tmp, 0o755)
							_ = os.Rename(tmp, e.path("hook.sh"))
						}
					} else if f, err := os.OpenFile(e.path("hook.sh"), os.O_WRONLY|os.O_TRUNC, 0); err == nil {
						_, _ = f.Write(content)
						f.Close()
					}
					swaps.Add(1)
					for r0 := ran.Load(); i%32 == 31 && ran.Load() == r0; {
						select {
						case <-finished:
						case <-stop:
							return
						}
					}
					runtime.Gosched()
				}
			}()

			work := make(chan int)
			var wg sync.WaitGroup
			for w := 0; w < 2; w++ {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for range work {
						c := e.cmd(`{"tool_name":"terminal","args":{"command":"rm -rf /"}}`, "dispatch", "pre_tool_call")
						out, err := c.Output()
						select {
						case finished <- struct{}{}:
						default:
						}
						if err != nil {
							var ee *exec.ExitError
							if !errors.As(err, &ee) {
								t.Error(err)
							}
							continue
						}
						s := string(out)
						if strings.Contains(s, `"ran":true`) {
							ran.Add(1)
						}
						if strings.Contains(s, `"message":"approved guard"`) {
							blocked.Add(1)
						}
					}
				}()
			}
			for i := 0; i < perMode; i++ {
				work <- i
			}
			close(work)
			wg.Wait()
			close(stop)
			<-swapped

			evil, _ := os.ReadFile(e.path("EVIL"))
			n := strings.Count(string(evil), "\n")
			t.Logf("%s: %d dispatches, %d swaps, %d ran the hook (%d blocked by the approved guard), %d ran unapproved content",
				mode, perMode, swaps.Load(), ran.Load(), blocked.Load(), n)
			if n != 0 {
				t.Fatalf("%d of %d dispatches ran content nobody approved", n, perMode)
			}
			if ran.Load() == 0 || ran.Load() != blocked.Load() {
				t.Fatalf("the approved guard ran %d times and blocked %d times: every run must be the approved one, and some must happen", ran.Load(), blocked.Load())
			}
		})
	}
}
