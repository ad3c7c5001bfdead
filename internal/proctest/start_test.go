package proctest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// notRunHere is notRunCmd with the system's not-run error: always false
// but on Windows.
func notRunHere(cmd *exec.Cmd, err error) bool { return notRunCmd(cmd, err, errNotRun) }

// errInternal stands for Windows' ERROR_INTERNAL_ERROR (1359) on every
// system, so that the decision is tested where CI's make test runs.
var errInternal error = syscall.Errno(1359)

// Only a start that failed with the not-run error, and got no process, is
// tried again: a process that ran and failed, whatever its error says, and
// any other start failure are real failures; a system without the error
// (nil: all but Windows) tries nothing again.
func TestNotRunDecision(t *testing.T) {
	startErr := &fs.PathError{Op: "fork/exec", Path: `C:\x\hook.exe`, Err: errInternal}
	cases := []struct {
		name     string
		err      error
		started  bool
		sentinel error
		want     bool
	}{
		{"start failed before it ran", startErr, false, errInternal, true},
		{"the bare error", errInternal, false, errInternal, true},
		{"wrapped again", fmt.Errorf("exec: %w", startErr), false, errInternal, true},
		{"no error", nil, false, errInternal, false},
		{"ran, then failed with the same error", startErr, true, errInternal, false},
		{"ran and exited non-zero", &exec.ExitError{}, true, errInternal, false},
		{"not found", &fs.PathError{Op: "fork/exec", Path: "x", Err: syscall.Errno(2)}, false, errInternal, false},
		{"exec: not found", exec.ErrNotFound, false, errInternal, false},
		{"the same words, not the error", errors.New("fork/exec x: Internal error."), false, errInternal, false},
		{"no such error on this system", startErr, false, nil, false},
	}
	for _, c := range cases {
		if got := notRun(c.err, c.started, c.sentinel); got != c.want {
			t.Errorf("%s: notRun(%v, started=%v) = %v, want %v", c.name, c.err, c.started, got, c.want)
		}
	}
	if runtime.GOOS != "windows" && notRunHere(&exec.Cmd{}, startErr) {
		t.Errorf("notRunHere retries on %s, which has no such error", runtime.GOOS)
	}
	if notRunHere(nil, errInternal) {
		t.Error("notRunHere retries a command that was never made")
	}
}

// A testscript log's line for a command whose start failed before it ran
// is what makes a script run again; the same error from a process that
// ran (its own output), or another start failure, is not.
func TestScriptStartFailedDecision(t *testing.T) {
	text := errInternal.Error()
	cases := []struct {
		log  string
		want bool
	}{
		{"> exec hermes-hooks serve\n[fork/exec C:\\t\\bin\\hermes-hooks.exe: " + text + "]\nFAIL: x.txtar:3: unexpected command failure\n", true},
		{"[fork/exec /bin/x: " + text + "]\r\n", true},
		{"> exec hermes-hooks serve\n[exit status 1]\nFAIL: x.txtar:3: unexpected command failure\n", false},
		{"[stderr]\nfork/exec C:\\hook.exe: " + text + "\n[exit status 1]\n", false},
		{"[fork/exec C:\\t\\x.exe: " + syscall.Errno(2).Error() + "]\n", false},
		{"", false},
	}
	for _, c := range cases {
		if got := scriptStartFailed(c.log, errInternal); got != c.want {
			t.Errorf("scriptStartFailed(%q) = %v, want %v", c.log, got, c.want)
		}
		if scriptStartFailed(c.log, nil) {
			t.Errorf("scriptStartFailed(%q) with no such error on the system: true", c.log)
		}
	}
}

// recorder is a Logger that keeps what it was told.
type recorder struct{ lines []string }

func (r *recorder) Logf(format string, args ...any) {
	r.lines = append(r.lines, fmt.Sprintf(format, args...))
}

// The helpers run a real process and return its outcome as exec.Cmd
// does, failures included: once each, but for a start Wine failed before
// it ran, which is made again and told (so never on Linux).
func TestRetryingHelpersRunOnce(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	calls := 0
	newCmd := func() *exec.Cmd {
		calls++
		c := exec.Command(exe, "-test.run=^$")
		return c
	}
	var log recorder
	if out, err := OutputRetrying(&log, newCmd); err != nil || !strings.Contains(string(out), "PASS") {
		t.Fatalf("OutputRetrying: %v %q", err, out)
	}
	if out, err := CombinedOutputRetrying(&log, newCmd); err != nil || len(out) == 0 {
		t.Fatalf("CombinedOutputRetrying: %v %q", err, out)
	}
	if err := RunRetrying(&log, newCmd); err != nil {
		t.Fatalf("RunRetrying: %v", err)
	}
	missing := func() *exec.Cmd { calls++; return exec.Command(exe + "-missing") }
	if err := RunRetrying(&log, missing); err == nil {
		t.Fatal("RunRetrying of a missing program: no error")
	}
	c, err := StartRetrying(&log, func() (*exec.Cmd, error) { return newCmd(), nil })
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Wait(); err != nil {
		t.Fatal(err)
	}
	if calls != 5+len(log.lines) || runtime.GOOS != "windows" && len(log.lines) != 0 {
		t.Errorf("%d calls (want 5 and one per retry), told %q", calls, log.lines)
	}
	for _, l := range log.lines {
		t.Log(l)
	}
}

// The loop: a start that failed before it ran is made again, up to
// startAttempts in all, each retry told; its last error is returned; a
// process that ran is never made again, whatever it returned.
func TestRetryOn(t *testing.T) {
	notStarted := &exec.Cmd{Path: `C:\x\hook.exe`}
	ran := &exec.Cmd{Path: `C:\x\hook.exe`, Process: &os.Process{Pid: 1}}
	startErr := &fs.PathError{Op: "fork/exec", Path: notStarted.Path, Err: errInternal}
	cases := []struct {
		name  string
		cmds  []*exec.Cmd // what each attempt returns, with errs
		errs  []error
		calls int
		told  int
		want  error
	}{
		{"started at the third", []*exec.Cmd{notStarted, notStarted, ran}, []error{startErr, startErr, nil}, 3, 2, nil},
		{"never started", []*exec.Cmd{notStarted, notStarted, notStarted, ran}, []error{startErr, startErr, startErr, nil}, startAttempts, 2, startErr},
		{"ran and failed", []*exec.Cmd{ran, ran}, []error{startErr, nil}, 1, 0, startErr},
		{"other start failure", []*exec.Cmd{notStarted, ran}, []error{exec.ErrNotFound, nil}, 1, 0, exec.ErrNotFound},
		{"no command made", []*exec.Cmd{nil, ran}, []error{startErr, nil}, 1, 0, startErr},
	}
	for _, c := range cases {
		calls := 0
		var log recorder
		err := retryOn(errInternal, &log, func() (*exec.Cmd, error) {
			calls++
			return c.cmds[calls-1], c.errs[calls-1]
		})
		if err != c.want || calls != c.calls || len(log.lines) != c.told {
			t.Errorf("%s: %v after %d calls, told %q; want %v after %d, told %d times", c.name, err, calls, log.lines, c.want, c.calls, c.told)
		}
		for _, l := range log.lines {
			if !strings.Contains(l, notStarted.Path) || !strings.Contains(l, errInternal.Error()) {
				t.Errorf("%s: the retry's note %q does not say what and why", c.name, l)
			}
		}
	}
	// Where there is no such error, nothing is made twice.
	calls := 0
	if err := retryOn(nil, &recorder{}, func() (*exec.Cmd, error) { calls++; return notStarted, startErr }); err != startErr || calls != 1 {
		t.Errorf("no not-run error: %v after %d calls", err, calls)
	}
}
