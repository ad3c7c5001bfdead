//go:build linux

package attacktest

import (
	"bytes"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Issue 23: paths on which an approved guard used to be skipped and the
// agent told "no objection". Each test drives the real binary.

// guardConfig is a fail_closed guard on tool calls whose script records
// its pid and then runs until killed.
const guardConfig = "hooks:\n  pre_tool_call:\n    - command: ./guard.sh\n      fail_closed: true\n"

const sleepingGuard = "#!/bin/sh\necho $$ > \"$WORK/guard.pid\"\nexec sleep 3600\n"

// finish waits (hang-bounded) for c and returns its exit code.
func finish(t *testing.T, c *exec.Cmd) int {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		c.Process.Kill()
		t.Fatal("the dispatch did not end")
	}
	return c.ProcessState.ExitCode()
}

// Item 5: SIGTERM while a fail_closed guard runs. dispatch used to print
// "decision: none" (or {} in Hermes' shape) and exit 0; it prints no
// outcome and exits 128+15. hook claude answers with Claude Code's deny.
func TestSignalledDispatchGivesNoAnswer(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		in   string
		// check is given stdout and the exit code.
		check func(t *testing.T, out string, code int)
	}{
		{"dispatch", []string{"dispatch", "pre_tool_call"}, `{"tool_name":"terminal"}`, func(t *testing.T, out string, code int) {
			if out != "" || code != 128+int(syscall.SIGTERM) {
				t.Errorf("dispatch answered %q with exit %d; want no outcome and exit %d", out, code, 128+int(syscall.SIGTERM))
			}
		}},
		{"dispatch --format hermes", []string{"dispatch", "--format", "hermes", "pre_tool_call"}, `{"tool_name":"terminal"}`, func(t *testing.T, out string, code int) {
			if out != "" || code == 0 {
				t.Errorf("dispatch answered %q with exit %d; want no outcome and a non-zero exit", out, code)
			}
		}},
		{"hook claude", []string{"hook", "claude"}, `{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, func(t *testing.T, out string, code int) {
			if !strings.Contains(out, `"permissionDecision":"deny"`) || !strings.Contains(out, "SIGTERM") {
				t.Errorf("hook claude answered %q (exit %d); want Claude Code's deny naming SIGTERM", out, code)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.write("guard.sh", sleepingGuard, 0o755)
			e.write("home/config.yaml", guardConfig, 0o644)
			e.run("", "approve", "./guard.sh")
			c := e.cmd(tc.in, tc.args...)
			var out, errb bytes.Buffer
			c.Stdout, c.Stderr = &out, &errb
			if err := c.Start(); err != nil {
				t.Fatal(err)
			}
			readPid(t, e.path("guard.pid"))
			if err := c.Process.Signal(syscall.SIGTERM); err != nil {
				t.Fatal(err)
			}
			code := finish(t, c)
			tc.check(t, out.String(), code)
			if t.Failed() {
				t.Logf("stderr: %s", errb.String())
			}
		})
	}
}
