//go:build linux

package attacktest

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// In serve, a stuck journal delays no decision (issue 23, item 9): with
// the journal's lock held by a stuck writer, 100 concurrent decisions are
// all answered at once, and their records are appended once the lock is
// free. The old server appended each record before answering, one at a
// time, each waiting out the 250 ms lock bound: 25 s for the last one,
// beyond hangGuard (which a loaded machine's hundred hooks stay far below).
func TestServeStuckJournalDelaysNoDecision(t *testing.T) {
	e := newEnv(t)
	e.write("ok.sh", "#!/bin/sh\necho '{}'\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+e.path("ok.sh")+"\n", 0o644)
	e.run("", "approve", e.path("ok.sh"))
	s := e.serve(shortSock(t))
	lock, err := os.OpenFile(e.path("home/hook-journal.jsonl.lock"), os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	const n = 100
	start := time.Now()
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, body := s.dispatch("pre_tool_call", fmt.Sprintf(`{"tool_name":"terminal","session_id":"s%d"}`, i))
			if code != 200 || !strings.Contains(body, `"ran":true`) {
				t.Errorf("dispatch %d: %d %s", i, code, body)
			}
		}()
	}
	wg.Wait()
	if d := time.Since(start); d > hangGuard {
		t.Fatalf("%d decisions took %v with the journal's lock held", n, d)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_UN); err != nil {
		t.Fatal(err)
	}
	journal := e.path("home/hook-journal.jsonl")
	waitFor(t, "the queued records", func() bool {
		data, _ := os.ReadFile(journal)
		return strings.Count(string(data), "\n") == n
	})
	c := exec.Command(binary, "log", "verify")
	c.Dir, c.Env = e.dir, e.vars
	if out, err := c.CombinedOutput(); err != nil || !strings.Contains(string(out), fmt.Sprintf("journal intact: %d record", n)) {
		t.Fatalf("log verify: %v\n%s", err, out)
	}
}

// A worker given up leaves a record that says so (issue 23, item 14): the
// dispatch is in the journal with the hook's error, and log shows it. The
// old log printed such a hook as "none" with no reason.
func TestServeWorkerGivenUpIsOnRecord(t *testing.T) {
	e := newEnv(t)
	e.write("w.sh", "#!/bin/sh\nexit 3\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+e.path("w.sh")+"\n      worker: true\n", 0o644)
	e.run("", "approve", e.path("w.sh"))
	s := e.serve(shortSock(t))
	var body string
	for range 8 {
		_, body = s.dispatch("pre_tool_call", `{"tool_name":"terminal"}`)
		if strings.Contains(body, "worker failed") {
			break
		}
	}
	if !strings.Contains(body, "worker failed") {
		t.Fatalf("the crashing worker was not given up: %s", body)
	}
	c := exec.Command(binary, "log")
	c.Dir, c.Env = e.dir, e.vars
	out, err := c.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "w.sh none failed (worker failed") {
		t.Fatalf("log: %v\n%s", err, out)
	}
}
