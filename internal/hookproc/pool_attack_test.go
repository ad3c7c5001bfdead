//go:build linux

package hookproc

import (
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Workers that break the protocol in each way a long-lived process can:
// the request ends within its timeout with a result that is no answer
// (the dispatcher then fails closed where asked), the worker's process
// group is gone, and the next request gets a fresh worker that answers.
const misbehavingWorker = `echo start >> "$LOG"
while IFS= read -r line; do
  case $line in
    partial) printf '%s' "partial $$"; exit 0 ;;
    twice) echo "$line $$"; echo "$line $$" ;;
    flood) head -c 3000000 /dev/zero | tr '\0' x; echo ;;
    errflood) head -c 3000000 /dev/zero >&2; echo "$line $$" ;;
    stop) kill -STOP $$ ;;
    closeout) exec >&-; sleep 3600 ;;
    *) echo "$line $$" ;;
  esac
done
`

func TestPoolWorkerMisbehaviour(t *testing.T) {
	for _, tc := range []struct {
		req string
		// want: what the result of the request must say; "" means it is
		// answered.
		want func(Result) bool
		// keep: the worker is kept past the request (a second reply shows
		// at the next request, which a fresh worker answers); same: it is
		// no misbehaviour at all, and the same worker answers next.
		keep, same bool
	}{
		{"partial", func(r Result) bool { return strings.Contains(r.SpawnError, "without replying") }, false, false},
		{"twice", nil, true, false},
		{"flood", func(r Result) bool { return strings.Contains(r.SpawnError, "longer than the output cap") }, false, false},
		{"errflood", func(r Result) bool { return r.Exited && len(r.Stderr) <= DefaultOutputCap }, true, true},
		{"stop", func(r Result) bool { return r.TimedOut }, false, false},
		{"closeout", func(r Result) bool { return strings.Contains(r.SpawnError, "without replying") }, false, false},
	} {
		t.Run(tc.req, func(t *testing.T) {
			f := newPoolFixture(t)
			f.spec.Argv = []string{"/bin/sh", "-c", misbehavingWorker}
			pid := f.pid("first")
			timeout := hangBound
			if tc.req == "stop" {
				timeout = time.Second // nothing has to start first: it is stopped either way
			}
			done := make(chan Result, 1)
			go func() { done <- f.ask(tc.req, timeout) }()
			var res Result
			select {
			case res = <-done:
			case <-time.After(timeout + hangBound):
				t.Fatalf("the request %q did not end", tc.req)
			}
			if tc.want != nil && !tc.want(res) {
				t.Fatalf("%s: %+v", tc.req, res)
			}
			if tc.want == nil && !res.Exited {
				t.Fatalf("%s: not answered: %+v", tc.req, res)
			}
			if !tc.keep {
				waitGone(t, pid)
			}
			if tc.req == "twice" {
				// The second reply came before the next request was sent
				// (the worker is replaced, the request retried) or after
				// (it is read as the next request's reply, and refused as
				// not its own): never the next request's answer.
				if res := f.ask("next", hangBound); !res.Exited && !strings.Contains(res.SpawnError, `replied "twice `) {
					t.Fatalf("after a second reply: %+v", res)
				}
			}
			if next := f.pid("next"); (next == pid) != tc.same {
				t.Fatalf("after %q: answered by %d (was %d)", tc.req, next, pid)
			}
			if tc.keep && !tc.same {
				waitGone(t, pid)
			}
		})
	}
}

// A worker that never reads its stdin, sent a request larger than a pipe
// holds: the write ends at the request's timeout, and the worker dies.
func TestPoolWorkerThatNeverReads(t *testing.T) {
	f := newPoolFixture(t)
	f.spec.Argv = []string{"/bin/sh", "-c", `echo start >> "$LOG"; echo $$ > "$LOG.pid"; exec sleep 3600`}
	done := make(chan Result, 1)
	go func() { done <- f.ask(strings.Repeat("x", 2<<20), time.Second) }()
	select {
	case res := <-done:
		if !res.TimedOut {
			t.Fatalf("%+v", res)
		}
	case <-time.After(time.Second + hangBound):
		t.Fatal("the request to a worker that never reads did not end")
	}
	if f.starts() == 1 {
		data, _ := os.ReadFile(f.log + ".pid")
		if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil {
			waitGone(t, pid)
		}
	}
}
