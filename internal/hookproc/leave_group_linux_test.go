//go:build linux

package hookproc

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// A hook is its process group's leader, so it cannot setsid; but it can
// move itself into another group of its session — its dispatcher's, say
// (setpgid(0, getpgid(getppid()))). Killing the hook's group then no longer
// reaches the hook. These tests start this test binary as such a hook: with
// leaveGroupVar set, init below leaves the group, writes its pid, opens the
// signal pipe the test waits on, and sleeps.

const leaveGroupVar = "HOOKPROC_TEST_LEAVE_GROUP"

func init() {
	dir := os.Getenv(leaveGroupVar)
	if dir == "" {
		return
	}
	// The parent's group: in the same session, so the kernel allows it.
	if pg, err := syscall.Getpgid(os.Getppid()); err == nil {
		_ = syscall.Setpgid(0, pg)
	}
	_ = os.WriteFile(filepath.Join(dir, "pid"), []byte(strconv.Itoa(os.Getpid())), 0o600)
	if f, err := os.OpenFile(filepath.Join(dir, "signal"), os.O_WRONLY, 0); err == nil {
		f.Close()
	}
	time.Sleep(time.Hour)
	os.Exit(0)
}

// leaveGroupHook is the Spec of such a hook, and the signal that it has
// left its group.
func leaveGroupHook(t *testing.T) (Spec, *proctest.Signal, string) {
	t.Helper()
	dir := t.TempDir()
	sig, err := proctest.NewSignal(filepath.Join(dir, "signal"))
	if err != nil {
		t.Fatal(err)
	}
	s := Spec{Path: os.Args[0], Argv: []string{os.Args[0]}, Env: append(os.Environ(), leaveGroupVar+"="+dir), Timeout: time.Hour}
	// Whatever the test found: the portable runner gives no parent-death
	// signal, and a failing runner leaves the hook running.
	t.Cleanup(func() {
		data, _ := os.ReadFile(filepath.Join(dir, "pid"))
		if pid, _ := strconv.Atoi(strings.TrimSpace(string(data))); pid > 0 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
	return s, sig, dir
}

// cancelWhen cancels the returned context once sig fires.
func cancelWhen(t *testing.T, sig *proctest.Signal) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	go func() {
		if sig.Wait(hangBound) == nil {
			cancel()
		}
	}()
	return ctx
}

func hookPid(t *testing.T, dir string) int {
	t.Helper()
	data, _ := os.ReadFile(filepath.Join(dir, "pid"))
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatalf("the hook wrote no pid: %v", err)
	}
	if pg, _ := syscall.Getpgid(pid); pg == pid {
		t.Fatalf("the hook %d is still its own group's leader: the test proves nothing", pid)
	}
	return pid
}

// A hook that left its process group dies with its run all the same.
func TestRunKillsAHookThatLeftItsGroup(t *testing.T) {
	for name, run := range runners() {
		t.Run(name, func(t *testing.T) {
			s, sig, dir := leaveGroupHook(t)
			done := make(chan Result, 1)
			go func() { done <- run(cancelWhen(t, sig), s) }()
			select {
			case res := <-done:
				if !res.Cancelled {
					t.Errorf("%+v; want cancelled", res)
				}
			case <-time.After(hangBound):
				t.Fatal("the run did not end at its cancellation")
			}
			if err := proctest.AwaitExit(hookPid(t, dir), hangBound); err != nil {
				t.Fatalf("the hook that left its group outlived its run: %v", err)
			}
		})
	}
}

// A worker that left its process group: the request ends at its
// cancellation (it used to wait forever for the worker's exit), and the
// worker dies.
func TestPoolKillsAWorkerThatLeftItsGroup(t *testing.T) {
	s, sig, dir := leaveGroupHook(t)
	pool := NewPool(PoolConfig{})
	done := make(chan Result, 1)
	go func() {
		done <- pool.Request(cancelWhen(t, sig), s, []byte("request\n"), func([]byte) (Result, string) { return Result{}, "replied" })
	}()
	select {
	case res := <-done:
		if !res.Cancelled {
			t.Errorf("%+v; want cancelled", res)
		}
	case <-time.After(hangBound):
		t.Fatal("the request did not end at its cancellation")
	}
	if err := proctest.AwaitExit(hookPid(t, dir), hangBound); err != nil {
		t.Fatalf("the worker that left its group outlived its request: %v", err)
	}
	closed := make(chan struct{})
	go func() { pool.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(hangBound):
		t.Fatal("Close hung")
	}
}

// The same at the hook's own timeout, with a drain grace of an hour: a
// runner that left the hook to its grace (os/exec kills the process itself
// only when WaitDelay runs out) would hang.
func TestTimeoutKillsAHookThatLeftItsGroup(t *testing.T) {
	for name, run := range runners() {
		t.Run(name, func(t *testing.T) {
			proctest.GrowTimeout(t, time.Second, 32*time.Second, func(timeout time.Duration) bool {
				s, _, dir := leaveGroupHook(t)
				s.Timeout, s.grace = timeout, time.Hour
				done := make(chan Result, 1)
				go func() { done <- run(context.Background(), s) }()
				select {
				case res := <-done:
					if !res.TimedOut {
						t.Errorf("%+v; want timed out", res)
					}
				case <-time.After(timeout + hangBound):
					t.Fatal("the run did not end at its timeout")
				}
				if _, err := os.Stat(filepath.Join(dir, "pid")); err != nil {
					return false // killed before it left its group
				}
				if err := proctest.AwaitExit(hookPid(t, dir), hangBound); err != nil {
					t.Fatalf("the hook that left its group outlived its timeout: %v", err)
				}
				return true
			})
		})
	}
}
