//go:build linux

package attacktest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The session-state lock has a bound (issue 23, item 9): a holder that is
// stuck (a dispatch stopped with SIGSTOP, a hung network file system) must
// neither stall a dispatch nor make it deaf to SIGTERM. The old dispatch
// waited on a blocking flock for as long as the holder held it.

// holdSessionLock takes the session-state lock of e's HERMES_HOME for the
// rest of the test and returns its path.
func holdSessionLock(t *testing.T, e *env) string {
	t.Helper()
	dir := e.path("home/hook-state")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, ".lock")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	return path
}

// statePatcher is a pre_llm_call hook whose reply patches the session's
// state, so the dispatch must update the session file under its lock.
func statePatcher(t *testing.T) *env {
	t.Helper()
	e := newEnv(t)
	e.write("patch.sh", "#!/bin/sh\necho '{\"state\": {\"k\": \"v\"}}'\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_llm_call:\n    - command: ./patch.sh\n", 0o644)
	e.run("", "approve", "./patch.sh")
	return e
}

// awaitEnd waits for the dispatch to exit; the bound only catches a hang.
func awaitEnd(t *testing.T, c interface{ Wait() error }, kill func()) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		return err
	case <-time.After(60 * time.Second):
		kill()
		<-done
		t.Fatal("the dispatch hung on the session-state lock")
		return nil
	}
}

// A held lock costs a dispatch the bound, and the hook's state patch,
// which the report says was not saved.
func TestSessionLockHeldDoesNotStallDispatch(t *testing.T) {
	e := statePatcher(t)
	holdSessionLock(t, e)
	var out, errb bytes.Buffer
	c := e.cmd(`{"session_id":"s1"}`, "dispatch", "pre_llm_call")
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	if err := awaitEnd(t, c, func() { c.Process.Kill() }); err != nil {
		t.Fatalf("dispatch: %v\n%s", err, errb.String())
	}
	if !strings.Contains(out.String(), "state patch not saved") {
		t.Fatalf("the lost state patch is not reported: %s\n%s", out.String(), errb.String())
	}
}

// SIGTERM ends a dispatch that waits for the lock.
func TestSessionLockWaitEndsOnSIGTERM(t *testing.T) {
	e := statePatcher(t)
	lock := holdSessionLock(t, e)
	c := e.cmd(`{"session_id":"s1"}`, "dispatch", "pre_llm_call")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	// It waits for the lock once it has the lock file open (unless the
	// bound ran out first: then there is nothing left to interrupt).
	exited := make(chan struct{})
	var waitErr error
	go func() { waitErr = c.Wait(); close(exited) }()
	fdDir := "/proc/" + strconv.Itoa(c.Process.Pid) + "/fd"
	waitFor(t, "the dispatch to open the lock file", func() bool {
		select {
		case <-exited:
			return true
		default:
		}
		fds, _ := os.ReadDir(fdDir)
		for _, fd := range fds {
			if target, _ := os.Readlink(filepath.Join(fdDir, fd.Name())); target == lock {
				return true
			}
		}
		return false
	})
	c.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
		if ws, ok := c.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			t.Fatalf("the dispatch died of the signal instead of ending: %v", waitErr)
		}
	case <-time.After(60 * time.Second):
		c.Process.Kill()
		<-exited
		t.Fatal("the dispatch waiting for the session-state lock ignored SIGTERM")
	}
}
