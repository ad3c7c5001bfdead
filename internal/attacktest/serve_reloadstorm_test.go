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
func TestServeReloadStorm(t *testing.T) {
	e := newEnv(t)
	e.write("guard.sh", "#!/bin/sh\necho '{\"action\": \"block\", \"message\": \"no\"}'\n", 0o755)
	guard := "hooks:\n  pre_tool_call:\n    - command: " + e.path("guard.sh") + "\n"
	e.write("home/config.yaml", guard, 0o644)
	e.run("", "approve", e.path("guard.sh"))
	s := e.serve(shortSock(t))
	pid := s.cmd.Process.Pid
	cfg := e.path("home/config.yaml")
	stop := make(chan struct{})
	done := make(chan struct{})
	var writes atomic.Int64
	go func() {
		defer close(done)
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
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
	t.Logf("%d dispatches during %d config replacements: %d unblocked; serve's fds at most %d, peak RSS %d KiB",
		n, writes.Load(), unblocked, maxFDs, peak)
	if unblocked != 0 {
		t.Fatalf("%d of %d dispatches were not blocked during the storm", unblocked, n)
	}
	if maxFDs > 64 || peak > 200<<10 {
		t.Fatalf("unbounded during the storm: %d fds, peak RSS %d KiB", maxFDs, peak)
	}
	e.write("home/config.yaml", "hooks: {}\n", 0o644)
	waitFor(t, "the config written after the storm", func() bool {
		_, body := s.dispatch("pre_tool_call", `{"tool_name":"terminal"}`)
		return strings.Contains(body, `"decision":"none"`)
	})
}
