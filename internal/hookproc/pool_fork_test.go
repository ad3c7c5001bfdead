//go:build linux

package hookproc

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A worker that forks a child holding its stdout and stderr and exits
// mid-request: the request ends (the worker's exit is seen, though its
// pipes are still held open), fails as no reply, the child goes with the
// worker, and the next request gets a fresh worker.
func TestPoolWorkerThatForksAndExits(t *testing.T) {
	f := newPoolFixture(t)
	f.spec.Argv = []string{"/bin/sh", "-c", `echo start >> "$LOG"
while IFS= read -r line; do
  case $line in
    fork) sleep 3600 & echo $! > "$LOG.child"; exit 0 ;;
    *) echo "$line $$" ;;
  esac
done`}
	first := f.pid("first")
	done := make(chan Result, 1)
	start := time.Now()
	go func() { done <- f.ask("fork", hangBound) }()
	var res Result
	select {
	case res = <-done:
	case <-time.After(2 * hangBound):
		t.Fatal("the request to a worker that forked and exited did not end")
	}
	t.Logf("ended after %v: %+v", time.Since(start).Round(time.Millisecond), res)
	// Its exit is the end of the request, not the timeout: the hook did
	// not take too long, it died (what the result says, and fail_closed,
	// go by).
	if res.TimedOut || !strings.Contains(res.SpawnError, "exited (status 0) without replying") {
		t.Fatalf("want an exit without reply, got %+v", res)
	}
	data, _ := os.ReadFile(f.log + ".child")
	child, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatalf("child pid: %q", data)
	}
	waitGone(t, child)
	waitGone(t, first)
	if next := f.pid("next"); next == first {
		t.Fatalf("the next request was answered by the worker that exited")
	}
}

// The grace an exited worker's reply is read within never runs past the
// request's own deadline: a worker that exits just before its timeout
// must not stretch the call beyond it (it ended 0.3 s late).
func TestGraceEndKeepsTheDeadline(t *testing.T) {
	now := time.Unix(1000, 0)
	for _, c := range []struct {
		deadline, want time.Time
	}{
		{time.Time{}, now.Add(stopGrace)},
		{now.Add(10 * time.Second), now.Add(stopGrace)},
		{now.Add(stopGrace / 2), now.Add(stopGrace / 2)},
		{now.Add(-time.Second), now.Add(-time.Second)},
	} {
		if got := graceEnd(now, c.deadline); !got.Equal(c.want) {
			t.Errorf("graceEnd(deadline %v) = %v, want %v", c.deadline.Sub(now), got.Sub(now), c.want.Sub(now))
		}
	}
}
