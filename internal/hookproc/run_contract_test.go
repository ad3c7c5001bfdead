//go:build unix

package hookproc

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// The runner contract: every runner (runPoll on Linux, runExec everywhere
// else — and compiled on Linux too, so CI checks it) must pass these, with
// real processes. Each runner gets the same cases.
func TestRunnerContract(t *testing.T) {
	for name, r := range runners() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runnerContract(t, r)
		})
	}
}

type runner func(context.Context, Spec) Result

// hangBound bounds waits that only a hang would reach.
const hangBound = 20 * time.Second

func shSpec(body string, timeout time.Duration) Spec {
	return Spec{Path: "/bin/sh", Argv: []string{"/bin/sh", "-c", body}, Env: os.Environ(), Timeout: timeout}
}

func runnerContract(t *testing.T, run runner) {
	ctx := context.Background()
	t.Run("exit code, stdout, stderr, stdin", func(t *testing.T) {
		s := shSpec(`cat; echo out; echo err >&2; exit 3`, time.Minute)
		s.Stdin = []byte("in|")
		res := run(ctx, s)
		if !res.Exited || res.ExitCode != 3 || string(res.Stdout) != "in|out\n" || string(res.Stderr) != "err\n" {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("death by signal is a negative code", func(t *testing.T) {
		res := run(ctx, shSpec(`kill -TERM $$`, time.Minute))
		if !res.Exited || res.ExitCode != -15 {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("stdin never read does not hang", func(t *testing.T) {
		s := shSpec(`echo ok`, time.Minute)
		s.Stdin = make([]byte, 10<<20)
		done := make(chan Result, 1)
		go func() { done <- run(ctx, s) }()
		select {
		case res := <-done:
			if string(res.Stdout) != "ok\n" {
				t.Fatalf("%+v", res)
			}
		case <-time.After(hangBound):
			t.Fatal("hung on an unread payload")
		}
	})
	t.Run("timeout kills the whole group", func(t *testing.T) {
		// The shell must have started its grandchild before the timeout
		// kills it; a loaded machine can take more than a second.
		proctest.GrowTimeout(t, time.Second, 32*time.Second, func(timeout time.Duration) bool {
			dir := t.TempDir()
			pidFile := filepath.Join(dir, "pid")
			s := shSpec(`sleep 3600 & echo $! > `+pidFile+`; echo started; wait`, timeout)
			start := time.Now()
			res := run(ctx, s)
			if !res.TimedOut || time.Since(start) > timeout+hangBound {
				t.Fatalf("%+v after %v", res, time.Since(start))
			}
			data, _ := os.ReadFile(pidFile)
			pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
			if pid == 0 {
				return false // no grandchild yet when the timeout fired
			}
			waitGone(t, pid)
			return true
		})
	})
	t.Run("StopGrace: SIGTERM first at the timeout, and the hook may clean up", func(t *testing.T) {
		// Claude Code's stop of a timed-out hook: a script that traps TERM
		// releases what it holds. The trap must be set before the timeout.
		proctest.GrowTimeout(t, time.Second, 32*time.Second, func(timeout time.Duration) bool {
			dir := t.TempDir()
			ready, cleaned := filepath.Join(dir, "ready"), filepath.Join(dir, "cleaned")
			s := shSpec(`trap 'echo cleaned > `+cleaned+`; exit 0' TERM; : > `+ready+`; sleep 3600 & wait`, timeout)
			s.StopGrace = hangBound
			start := time.Now()
			res := run(ctx, s)
			if _, err := os.Stat(ready); err != nil {
				return false // the timeout came before the trap was set
			}
			if !res.TimedOut || res.Cancelled || time.Since(start) > timeout+hangBound {
				t.Fatalf("%+v after %v", res, time.Since(start))
			}
			if data, err := os.ReadFile(cleaned); err != nil || string(data) != "cleaned\n" {
				t.Fatalf("the TERM trap did not run: %q, %v", data, err)
			}
			return true
		})
	})
	t.Run("StopGrace: one that ignores SIGTERM is killed when the grace ends", func(t *testing.T) {
		proctest.GrowTimeout(t, time.Second, 32*time.Second, func(timeout time.Duration) bool {
			dir := t.TempDir()
			ready, pidFile := filepath.Join(dir, "ready"), filepath.Join(dir, "pid")
			s := shSpec(`trap '' TERM; echo $$ > `+pidFile+`; : > `+ready+`; while :; do sleep 1; done`, timeout)
			s.StopGrace = 100 * time.Millisecond
			start := time.Now()
			res := run(ctx, s)
			if _, err := os.Stat(ready); err != nil {
				return false
			}
			if !res.TimedOut || time.Since(start) > timeout+hangBound {
				t.Fatalf("%+v after %v", res, time.Since(start))
			}
			data, _ := os.ReadFile(pidFile)
			pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
			waitGone(t, pid)
			return true
		})
	})
	t.Run("StopGrace: a caller that gives up kills at once", func(t *testing.T) {
		dir := t.TempDir()
		cleaned := filepath.Join(dir, "cleaned")
		started, err := proctest.NewSignal(filepath.Join(dir, "started"))
		if err != nil {
			t.Fatal(err)
		}
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go func() {
			if started.Wait(hangBound) == nil {
				cancel()
			}
		}()
		s := shSpec(`trap 'echo cleaned > `+cleaned+`; exit 0' TERM; : > `+started.Path()+`; sleep 3600 & wait`, time.Minute)
		s.StopGrace = hangBound
		start := time.Now()
		res := run(cctx, s)
		if !res.Cancelled || res.TimedOut || time.Since(start) > hangBound {
			t.Fatalf("%+v after %v", res, time.Since(start))
		}
		if _, err := os.Stat(cleaned); err == nil {
			t.Fatal("a cancelled run sent SIGTERM (its trap ran): the caller's deadline waits for no grace")
		}
	})
	t.Run("StopGrace: exiting 0 on SIGTERM is still a timeout, and what it started goes", func(t *testing.T) {
		// A hook that cleans up and exits 0 in its grace did not succeed:
		// a helper it left (its output elsewhere, so no held pipe says so)
		// is killed with its group, as after any failed run.
		proctest.GrowTimeout(t, time.Second, 32*time.Second, func(timeout time.Duration) bool {
			dir := t.TempDir()
			ready, pidFile := filepath.Join(dir, "ready"), filepath.Join(dir, "pid")
			s := shSpec(`trap 'sleep 3600 >/dev/null 2>&1 & echo $! > `+pidFile+`; exit 0' TERM; : > `+ready+`; while :; do sleep 1; done`, timeout)
			s.StopGrace = hangBound
			res := run(ctx, s)
			if _, err := os.Stat(ready); err != nil {
				return false
			}
			if !res.TimedOut || res.Cancelled {
				t.Fatalf("%+v", res)
			}
			data, err := os.ReadFile(pidFile)
			if err != nil {
				t.Fatalf("the TERM trap did not run: %v", err)
			}
			pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
			waitGone(t, pid)
			return true
		})
	})
	t.Run("StopGrace: a hook that exits in time waits for no stop grace", func(t *testing.T) {
		// The grace is for a hook stopped at its timeout; one that exited
		// by itself, a helper holding its pipes, gets the drain grace
		// alone (the exec runner's WaitDelay had the stop grace added).
		s := shSpec(`echo '{"decision":"block"}'; sleep 3600 &`, time.Minute)
		s.StopGrace = hangBound
		start := time.Now()
		res := run(ctx, s)
		if time.Since(start) >= hangBound || !strings.Contains(string(res.Stdout), `"block"`) || res.TimedOut {
			t.Fatalf("%+v after %v", res, time.Since(start))
		}
	})
	t.Run("StopGrace: a caller that gives up during the grace kills at once, still a timeout", func(t *testing.T) {
		// The hook timed out first: giving up on it during its grace
		// kills it at once, and the run stays the timeout it was (as
		// proc.cancel keeps it).
		proctest.GrowTimeout(t, time.Second, 32*time.Second, func(timeout time.Duration) bool {
			dir := t.TempDir()
			ready := filepath.Join(dir, "ready")
			termed, err := proctest.NewSignal(filepath.Join(dir, "termed"))
			if err != nil {
				t.Fatal(err)
			}
			cctx, cancel := context.WithCancel(ctx)
			defer cancel()
			go func() {
				if termed.Wait(hangBound) == nil {
					cancel()
				}
			}()
			s := shSpec(`trap ': > `+termed.Path()+`' TERM; : > `+ready+`; while :; do sleep 1; done`, timeout)
			s.StopGrace = hangBound
			start := time.Now()
			res := run(cctx, s)
			if _, err := os.Stat(ready); err != nil {
				return false // the timeout came before the trap was set
			}
			if !res.TimedOut || res.Cancelled || time.Since(start) >= timeout+hangBound {
				t.Fatalf("%+v after %v", res, time.Since(start))
			}
			return true
		})
	})
	t.Run("a held pipe after exit is bounded and its output kept", func(t *testing.T) {
		start := time.Now()
		res := run(ctx, shSpec(`echo '{"decision":"block"}'; sleep 3600 &`, time.Minute))
		if time.Since(start) > hangBound || !strings.Contains(string(res.Stdout), `"block"`) {
			t.Fatalf("%+v after %v", res, time.Since(start))
		}
	})
	t.Run("output is capped", func(t *testing.T) {
		s := shSpec(`head -c 3000000 /dev/zero; head -c 3000000 /dev/zero >&2`, time.Minute)
		s.Cap = 1000
		res := run(ctx, s)
		if len(res.Stdout) != 1000 || len(res.Stderr) != 1000 || !res.StdoutTruncated || !res.StderrTruncated {
			t.Fatalf("stdout %d stderr %d %+v", len(res.Stdout), len(res.Stderr), res.StdoutTruncated)
		}
	})
	t.Run("spawn errors in Hermes' words", func(t *testing.T) {
		dir := t.TempDir()
		if res := run(ctx, Spec{Path: filepath.Join(dir, "missing"), Argv: []string{"missing"}, Timeout: time.Minute}); res.SpawnError != "command not found" {
			t.Fatalf("missing: %+v", res)
		}
		p := filepath.Join(dir, "noexec")
		os.WriteFile(p, []byte("#!/bin/sh\n"), 0o644)
		if res := run(ctx, Spec{Path: p, Argv: []string{p}, Timeout: time.Minute}); res.SpawnError != "command not executable" {
			t.Fatalf("not executable: %+v", res)
		}
	})
	t.Run("cancellation kills and reports", func(t *testing.T) {
		// Cancelled once the hook runs (a fixed delay could pass before
		// a loaded machine started it).
		started, err := proctest.NewSignal(filepath.Join(t.TempDir(), "started"))
		if err != nil {
			t.Fatal(err)
		}
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		go func() {
			if started.Wait(hangBound) == nil {
				cancel()
			}
		}()
		res := run(cctx, shSpec(`: > `+started.Path()+`; sleep 3600`, time.Minute))
		if !res.Cancelled || res.TimedOut {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("a failing Verify starts nothing", func(t *testing.T) {
		dir := t.TempDir()
		s := shSpec(`touch `+filepath.Join(dir, "ran"), time.Minute)
		s.Verify = func() error { return errors.New("x changed") }
		res := run(ctx, s)
		if res.SpawnError != "x changed" {
			t.Fatalf("%+v", res)
		}
		if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
			t.Fatal("it ran")
		}
	})
	t.Run("a script without #! runs with sh when asked", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "plain")
		if err := proctest.WriteExecutable(p, []byte("echo plain \"$1\"\n")); err != nil {
			t.Fatal(err)
		}
		res := run(ctx, Spec{Path: p, Argv: []string{p, "arg"}, Timeout: time.Minute, ShellFallback: true})
		if string(res.Stdout) != "plain arg\n" {
			t.Fatalf("%+v", res)
		}
	})
	t.Run("the pinned script is the child's fd 3", func(t *testing.T) {
		f, err := os.CreateTemp(t.TempDir(), "script")
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("echo from-fd-3\n")
		s := shSpec(`. /proc/self/fd/3`, time.Minute)
		s.ExtraFiles = []*os.File{f}
		res := run(ctx, s)
		f.Close()
		if _, err := os.Stat("/proc/self/fd"); err == nil && string(res.Stdout) != "from-fd-3\n" {
			t.Fatalf("%+v", res)
		}
	})
}

// waitGone waits until pid no longer runs (a zombie counts as gone).
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(hangBound)
	for {
		if len(proctest.LiveGroupMembers(pid)) == 0 {
			if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err != nil || !procAlive(pid) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("process %d survived", pid)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func procAlive(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] != 'Z'
}
