//go:build linux

package attacktest

import (
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// A config replaced a thousand times a second (each time a new file
// renamed into place, its content different each time), for three
// seconds: serve goes on answering with the last good config (a guard that
// blocks), its descriptors and memory stay bounded, and once the storm
// ends the last config written is loaded.
//
// The storm is only a storm while the writer keeps writing: a machine so
// loaded that the writer stalls for a good part of serve's settle period
// (200 ms) lets the file settle, and serve then rightly loads what was
// last written. Such a run proves nothing either way and is run again
// (make test runs beside make stress); a run whose writer never paused
// that long must see every dispatch blocked.
func TestServeReloadStorm(t *testing.T) {
	for attempt := 1; ; attempt++ {
		e := newEnv(t)
		e.write("guard.sh", "#!/bin/sh\necho '{\"action\": \"block\", \"message\": \"no\"}'\n", 0o755)
		guard := "hooks:\n  pre_tool_call:\n    - command: " + e.path("guard.sh") + "\n"
		e.write("home/config.yaml", guard, 0o644)
		e.run("", "approve", e.path("guard.sh"))
		s := e.serve(shortSock(t))
		if reloadStorm(t, e, s, guard) || attempt == 5 {
			e.write("home/config.yaml", "hooks: {}\n", 0o644)
			waitFor(t, "the config written after the storm", func() bool {
				_, body := s.dispatch("pre_tool_call", `{"tool_name":"terminal"}`)
				return strings.Contains(body, `"decision":"none"`)
			})
			return
		}
	}
}

// stormPause is the longest stall of the storm's writer after which a
// dispatch let through proves nothing: half of serve's settle period.
const stormPause = 100 * time.Millisecond

// reloadStorm runs one storm against s; false when its writer stalled
// (stormPause) and a dispatch came back unblocked: inconclusive.
func reloadStorm(t *testing.T, e *env, s *server, guard string) bool {
	pid := s.cmd.Process.Pid
	cfg := e.path("home/config.yaml")
	stop := make(chan struct{})
	done := make(chan struct{})
	var writes, longestGap atomic.Int64
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		last := time.Now()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			tmp := cfg + ".tmp"
			// Every other version names no hook at all: were one applied,
			// a dispatch would come back unblocked.
			body := guard + "# " + strconv.Itoa(i) + "\n"
			if i%2 == 1 {
				body = "hooks: {}\n# " + strconv.Itoa(i) + "\n"
			}
			if os.WriteFile(tmp, []byte(body), 0o644) == nil && os.Rename(tmp, cfg) == nil {
				writes.Add(1)
				now := time.Now()
				if gap := int64(now.Sub(last)); gap > longestGap.Load() {
					longestGap.Store(gap)
				}
				last = now
			}
		}
	}()
	n, unblocked, maxFDs := 0, 0, 0
	for start := time.Now(); time.Since(start) < 3*time.Second; n++ {
		code, body := s.dispatch("pre_tool_call", `{"tool_name":"terminal"}`)
		if code != 200 || !strings.Contains(body, `"block"`) {
			unblocked++
		}
		maxFDs = max(maxFDs, len(mustReadDir(t, "/proc/"+strconv.Itoa(pid)+"/fd")))
	}
	close(stop)
	<-done
	peak := statusKB(t, pid, "VmHWM")
	gap := time.Duration(longestGap.Load())
	t.Logf("%d dispatches during %d config replacements: %d unblocked; the writer's longest pause %v; serve's fds at most %d, peak RSS %d KiB",
		n, writes.Load(), unblocked, gap, maxFDs, peak)
	if maxFDs > 64 || peak > 200<<10 {
		t.Fatalf("unbounded during the storm: %d fds, peak RSS %d KiB", maxFDs, peak)
	}
	if unblocked != 0 {
		if gap >= stormPause {
			t.Logf("inconclusive: the writer paused %v (the machine is loaded), long enough for the file to settle; again", gap)
			return false
		}
		t.Fatalf("%d of %d dispatches were not blocked during the storm", unblocked, n)
	}
	return true
}
