//go:build linux

package hookproc

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// The pool's process contract, with real /bin/sh workers. (The dispatcher's
// worker tests check the same through configs, consent and request ids.)

// poolWorker answers each request line "X" with "X PID"; "hang" never
// answers, "die" exits. Every start is logged to $LOG. With IGNORE_EOF it
// outlives its stdin.
const poolWorker = `echo start >> "$LOG"
while IFS= read -r line; do
  case $line in
    hang) sleep 3600 ;;
    die) exit 3 ;;
    *) echo "$line $$" ;;
  esac
done
if [ -n "$IGNORE_EOF" ]; then trap '' TERM; sleep 3600; fi
`

type poolFixture struct {
	t    *testing.T
	log  string
	spec Spec
	pool *Pool

	mu     sync.Mutex
	gaveUp []string
}

func newPoolFixture(t *testing.T, env ...string) *poolFixture {
	t.Helper()
	f := &poolFixture{t: t, log: filepath.Join(t.TempDir(), "starts.log")}
	f.spec = Spec{Path: "/bin/sh", Argv: []string{"/bin/sh", "-c", poolWorker},
		Env: append(os.Environ(), append(env, "LOG="+f.log)...), Timeout: hangBound}
	f.pool = NewPool(PoolConfig{GaveUp: func(why string) { f.mu.Lock(); f.gaveUp = append(f.gaveUp, why); f.mu.Unlock() }})
	t.Cleanup(f.pool.Close)
	return f
}

// ask sends one request; the reply must start with the request's text.
func (f *poolFixture) ask(req string, timeout time.Duration) Result {
	s := f.spec
	s.Timeout = timeout
	return f.pool.Request(context.Background(), s, []byte(req+"\n"), func(reply []byte) (Result, string) {
		if !strings.HasPrefix(string(reply), req+" ") {
			return Result{}, "replied " + strconv.Quote(string(reply))
		}
		return Result{Exited: true, Stdout: reply}, ""
	})
}

// pid asks req and returns the pid of the worker that answered.
func (f *poolFixture) pid(req string) int {
	f.t.Helper()
	res := f.ask(req, hangBound)
	pid, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(string(res.Stdout), req+" ")))
	if err != nil || !res.Exited {
		f.t.Fatalf("%s: %+v", req, res)
	}
	return pid
}

func (f *poolFixture) starts() int {
	b, _ := os.ReadFile(f.log)
	return strings.Count(string(b), "start")
}

func TestPoolKeepsItsWorker(t *testing.T) {
	f := newPoolFixture(t)
	if a, b := f.pid("one"), f.pid("two"); a != b {
		t.Fatalf("two requests, two workers (%d, %d)", a, b)
	}
	if live, failed := f.pool.Status(); live != 1 || failed != "" || f.starts() != 1 {
		t.Fatalf("Status() = %d, %q; %d starts", live, failed, f.starts())
	}
}

func TestPoolWorkerSeesWorkerEnv(t *testing.T) {
	f := newPoolFixture(t)
	f.spec.Argv = []string{"/bin/sh", "-c", `read -r line; echo "$line $` + WorkerEnv + `"`}
	if res := f.ask("env", hangBound); string(res.Stdout) != "env 1\n" {
		t.Fatalf("%+v", res)
	}
}

// A request past its timeout kills the worker and its group; the next
// request gets a fresh worker.
func TestPoolTimeoutKillsTheWorker(t *testing.T) {
	f := newPoolFixture(t)
	pid := f.pid("first")
	if res := f.ask("hang", time.Second); !res.TimedOut || res.Exited {
		t.Fatalf("hang: %+v", res)
	}
	waitGone(t, pid) // the worker and its process group
	if f.pid("after") == pid {
		t.Fatal("the timed-out worker answered again")
	}
}

// A request that never reached a live worker (it died while idle) is
// retried on a fresh one, not failed.
func TestPoolRetriesARequestNoWorkerSaw(t *testing.T) {
	f := newPoolFixture(t)
	pid := f.pid("first")
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := proctest.AwaitExit(pid, hangBound); err != nil {
		t.Fatal(err)
	}
	if got := f.pid("second"); got == pid || f.starts() != 2 {
		t.Fatalf("answered by %d (was %d), %d starts", got, pid, f.starts())
	}
}

// A worker that keeps crashing gives the pool up: the caller hears it once,
// and no request starts it again.
func TestPoolGivesUpAfterACrashLoop(t *testing.T) {
	f := newPoolFixture(t)
	for i := range crashLimit {
		if res := f.ask("die", hangBound); !strings.Contains(res.SpawnError, "exited (status 3) without replying") {
			t.Fatalf("crash %d: %+v", i+1, res)
		}
	}
	starts := f.starts()
	res := f.ask("ok", hangBound)
	if !strings.HasPrefix(res.SpawnError, "worker failed: it crashed 5 times") {
		t.Fatalf("after the crash loop: %+v", res)
	}
	if f.starts() != starts {
		t.Fatal("a given-up pool started a worker")
	}
	if _, failed := f.pool.Status(); failed == "" {
		t.Fatal("Status() does not say it failed")
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.gaveUp) != 1 {
		t.Fatalf("GaveUp heard %q, want once", f.gaveUp)
	}
}

// Close stops a worker that ignores EOF on its stdin, with its group.
func TestPoolCloseKillsAWorkerIgnoringEOF(t *testing.T) {
	f := newPoolFixture(t, "IGNORE_EOF=1")
	pid := f.pid("first")
	done := make(chan struct{})
	go func() { f.pool.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(hangBound):
		t.Fatal("Close hung")
	}
	waitGone(t, pid) // the worker and its process group
	if res := f.ask("late", hangBound); res.SpawnError != "worker stopped" {
		t.Fatalf("a request after Close: %+v", res)
	}
}
