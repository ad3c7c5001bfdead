//go:build linux

package attacktest

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
	"github.com/hermes-hooks/hermes-hooks/internal/testbin"
)

// Hooks die with their dispatcher and leave nothing behind (issue 12, item
// 9) — unless they succeed (issue 23, item 17: tree_test.go). A hook's
// process group is killed at its timeout; a descendant that calls setsid
// leaves that group, and used to outlive everything (its hook's timeout,
// the dispatch, the agent). Each test starts such a descendant and checks
// it is gone when the dispatch is.

const escapee = "#!/bin/sh\n" +
	"setsid sh -c 'echo $$ > \"$WORK/escapee.pid\"; exec sleep 3600' </dev/null >/dev/null 2>&1 &\n"

// At the hook's timeout, its escaped descendant is killed with its group.
func TestEscapedDescendantKilledAtTimeout(t *testing.T) {
	testbin.SkipUnlessLinuxFeatures(t, "a child subreaper: a descendant that left its hook's process group (setsid) is not tracked")
	// The descendant must be up (its pid written) before the timeout
	// fires; on a loaded machine that can take more than a second.
	proctest.GrowTimeout(t, time.Second, 32*time.Second, func(timeout time.Duration) bool {
		e := newEnv(t)
		e.write("hook.sh", escapee+"exec sleep 3600\n", 0o755)
		e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: ./hook.sh\n      timeout: "+strconv.Itoa(int(timeout/time.Second))+"\n", 0o644)
		e.run("", "approve", "./hook.sh")
		out := e.run(`{"tool_name":"terminal"}`, "dispatch", "pre_tool_call")
		if !strings.Contains(out, `"timed_out":true`) {
			t.Fatalf("hook did not time out: %s", out)
		}
		data, _ := os.ReadFile(e.path("escapee.pid"))
		pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
		if pid == 0 {
			return false // not up yet when the timeout fired
		}
		if alive(pid) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the hook's setsid descendant %d outlived its hook's timeout and the dispatch", pid)
		}
		return true
	})
}

// A hook that fails at once, leaving a setsid'd process behind: the
// dispatch kills it before it exits. (A hook that exits 0 keeps what it
// detached: see TestSuccessfulHookKeepsDetachedHelpers.)
func TestEscapedDescendantKilledAtDispatchExit(t *testing.T) {
	testbin.SkipUnlessLinuxFeatures(t, "a child subreaper: a descendant that left its hook's process group (setsid) is not tracked")
	e := newEnv(t)
	// The hook waits until its descendant is up, so the test can name it.
	e.write("hook.sh", escapee+"until [ -s \"$WORK/escapee.pid\" ]; do sleep 0.01; done\necho '{}'\nexit 1\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: ./hook.sh\n", 0o644)
	e.run("", "approve", "./hook.sh")
	e.run(`{"tool_name":"terminal"}`, "dispatch", "pre_tool_call")
	pid := readPid(t, e.path("escapee.pid"))
	if alive(pid) {
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("the hook's setsid descendant %d outlived the dispatch", pid)
	}
}

// SIGHUP (a closed terminal, a stopped agent) ends a dispatch as cleanly as
// SIGTERM: the running hook is killed. The old code died of the signal and
// left the hook running in its own process group.
func TestSIGHUPKillsRunningHooks(t *testing.T) {
	e := newEnv(t)
	e.write("hook.sh", "#!/bin/sh\necho $$ > \"$WORK/hook.pid\"\nexec sleep 3600\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: ./hook.sh\n", 0o644)
	e.run("", "approve", "./hook.sh")
	c := e.cmd(`{"tool_name":"terminal"}`, "dispatch", "pre_tool_call")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	pid := readPid(t, e.path("hook.pid"))
	if err := c.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		c.Process.Kill()
		t.Fatal("dispatch did not end on SIGHUP")
	}
	waitFor(t, "the hook to die", func() bool { return !alive(pid) })
}

// However the dispatcher dies — SIGKILL included — its hooks die with it
// (the parent-death signal).
func TestHooksDieWithTheDispatcher(t *testing.T) {
	testbin.SkipUnlessLinuxFeatures(t, "a parent-death signal: a SIGKILLed dispatcher cannot kill its hooks")
	e := newEnv(t)
	e.write("hook.sh", "#!/bin/sh\necho $$ > \"$WORK/hook.pid\"\nexec sleep 3600\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: ./hook.sh\n", 0o644)
	e.run("", "approve", "./hook.sh")
	c := e.cmd(`{"tool_name":"terminal"}`, "dispatch", "pre_tool_call")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	pid := readPid(t, e.path("hook.pid"))
	if err := c.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = c.Wait()
	if err := proctest.AwaitExit(pid, 60*time.Second); err != nil { // a hang guard: milliseconds
		syscall.Kill(pid, syscall.SIGKILL)
		t.Fatalf("hook %d outlived its SIGKILLed dispatcher: %v", pid, err)
	}
}

// A second stop signal while the first one's cancellation is under way (a
// terminal closing sends SIGHUP after the user's Ctrl-C) must not take the
// dispatcher down before it has killed the escaped descendants: the signals
// stay caught until the dispatch is over.
func TestSecondSignalDoesNotLeaveEscapees(t *testing.T) {
	testbin.SkipUnlessLinuxFeatures(t, "a child subreaper: a descendant that left its hook's process group (setsid) is not tracked")
	e := newEnv(t)
	// The descendant keeps the hook's stdout and stderr open: after the
	// hook's group is killed, the dispatch drains those pipes for a while
	// before it looks for escapees — the window the second signal hits.
	e.write("hook.sh", "#!/bin/sh\nsetsid sh -c 'echo $$ > \"$WORK/escapee.pid\"; exec sleep 3600' &\n"+
		"echo $$ > \"$WORK/hook.pid\"\nexec sleep 3600\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: ./hook.sh\n", 0o644)
	e.run("", "approve", "./hook.sh")
	c := e.cmd(`{"tool_name":"terminal"}`, "dispatch", "pre_tool_call")
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	hook := readPid(t, e.path("hook.pid"))
	escaped := readPid(t, e.path("escapee.pid"))
	defer syscall.Kill(escaped, syscall.SIGKILL)
	if err := c.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// The first signal was acted on once the hook is gone; the second
	// one comes while the dispatch is still winding down.
	waitFor(t, "the hook to die", func() bool { return !alive(hook) })
	_ = c.Process.Signal(syscall.SIGHUP)
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		if ws, ok := c.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			t.Errorf("the dispatcher was killed by the second signal (%v): %v", ws.Signal(), err)
		}
	case <-time.After(30 * time.Second):
		c.Process.Kill()
		t.Fatal("dispatch did not end after its signals")
	}
	waitFor(t, "the escaped descendant to die", func() bool { return !alive(escaped) })
}
