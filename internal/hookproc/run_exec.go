//go:build unix

package hookproc

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"sync/atomic"
	"syscall"
	"time"
)

// runExec is the portable runner, built on os/exec, for Unix systems other
// than Linux (where runPoll is used); Linux builds compile it too, so that
// the runner contract tests check it in CI. It starts the process in its
// own process group, feeds it Stdin, captures its output up to the cap, and
// waits — never longer than its timeout plus drainGrace. On timeout,
// cancellation or a failed exit the whole process group is killed. If the hook exits but
// something it started still holds its output pipes after drainGrace, that
// group is killed too: we stop listening, and a process left writing into a
// closed pipe would only die of SIGPIPE later.
func runExec(ctx context.Context, s Spec) Result {
	start := time.Now()
	if s.Cap <= 0 {
		s.Cap = DefaultOutputCap
	}
	tctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()

	grace := s.drainWait()
	var killed atomic.Bool
	// terminated: the timeout sent SIGTERM (Spec.StopGrace); the group is
	// SIGKILLed at the grace's end, when the caller gives up, or once the
	// hook has been waited for, whichever comes first.
	var terminated atomic.Bool
	killLater := make(chan struct{})
	defer close(killLater)
	stdout := &capBuffer{max: s.Cap}
	stderr := &capBuffer{max: s.Cap}
	newCmd := func(path string, argv []string) *exec.Cmd {
		cmd := exec.CommandContext(tctx, path)
		cmd.Args = argv
		cmd.Env = s.Env
		cmd.Dir = s.Dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		cmd.ExtraFiles = s.ExtraFiles
		// A fresh reader per child: concurrent hooks never share read state.
		cmd.Stdin = bytes.NewReader(s.Stdin)
		cmd.Stdout, cmd.Stderr = stdout, stderr
		cmd.Cancel = func() error {
			killed.Store(true)
			if s.StopGrace > 0 && ctx.Err() == nil {
				terminated.Store(true)
				terminateExec(ctx, cmd, grace+s.StopGrace, s.StopGrace, killLater)
				return nil
			}
			signalGroup(cmd, syscall.SIGKILL)
			return nil
		}
		cmd.WaitDelay = grace
		return cmd
	}
	if s.Verify != nil {
		if err := s.Verify(); err != nil {
			return Result{SpawnError: spawnErrorText(err), Elapsed: time.Since(start)}
		}
	}
	rewind(s.ExtraFiles)
	cmd := newCmd(s.Path, s.Argv)
	err := cmd.Start()
	if errors.Is(err, syscall.ENOEXEC) && s.ShellFallback {
		// A script without a #! line: the shell runs it itself.
		cmd = newCmd("/bin/sh", append([]string{"/bin/sh", s.Path}, s.Argv[1:]...))
		err = cmd.Start()
	}
	if err != nil {
		return Result{SpawnError: spawnErrorText(err), Elapsed: time.Since(start)}
	}
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	select {
	case err = <-waited:
	case <-ctx.Done():
		// The caller gave up: kill, and wait only briefly for the exit,
		// not for pipes a descendant holds (WaitDelay's grace). What it
		// wrote is not read (the copiers may still be writing it).
		_ = cmd.Cancel()
		t := time.NewTimer(cancelGrace)
		defer t.Stop()
		select {
		case err = <-waited:
		case <-t.C:
			// Given up on during the stop grace, it had timed out
			// first (as runPoll's proc.cancel keeps it).
			return Result{Cancelled: !terminated.Load(), TimedOut: terminated.Load(), Elapsed: time.Since(start)}
		}
	}
	if terminated.Load() {
		// It went on SIGTERM: what it left in its group goes now, while
		// that group's id is still taken if anything is left in it.
		_ = killGroup(cmd)
	}
	if errors.Is(err, exec.ErrWaitDelay) {
		// The hook is gone but its pipes were held open: clean up whatever
		// of its process group is left.
		_ = killGroup(cmd)
	}
	res, done := ended(ctx, stdout, stderr, start, killed.Load())
	if done {
		if terminated.Load() {
			res.Cancelled, res.TimedOut = false, true // see above
		}
		return res
	}
	if ps := cmd.ProcessState; ps != nil {
		res.Exited = true
		res.ExitCode = ps.ExitCode()
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.ExitCode = -int(ws.Signal())
		}
		if res.ExitCode != 0 {
			// A hook that failed leaves nothing behind; one that exited
			// 0 keeps the helpers it detached (see proc.succeeded).
			_ = killGroup(cmd)
		}
	}
	return res
}

// terminateExec is a timed-out hook's first stop when it has a stop
// grace: SIGTERM to its group and itself, SIGKILL when the grace ends or
// the caller gives up (ctx), unless it was waited for first (waited:
// the run then kills what is left). WaitDelay's kill reaches the hook
// alone.
//
// The pipes are waited for through the stop grace too (waitDelay), but
// only here: a hook that exited in time and left a helper holding them
// gets the drain grace alone. os/exec reads WaitDelay right after Cancel
// returns, on Cancel's goroutine (Wait reads it only when Cancel never
// ran), and only a timeout calls Cancel with ctx alive.
func terminateExec(ctx context.Context, cmd *exec.Cmd, waitDelay, grace time.Duration, waited <-chan struct{}) {
	cmd.WaitDelay = waitDelay
	signalGroup(cmd, syscall.SIGTERM)
	go func() {
		t := time.NewTimer(grace)
		defer t.Stop()
		select {
		case <-t.C:
			signalGroup(cmd, syscall.SIGKILL)
		case <-ctx.Done(): // the caller gave up during the grace
			signalGroup(cmd, syscall.SIGKILL)
		case <-waited:
		}
	}()
}

// signalGroup sends sig to the hook's process group and to the hook
// itself: it may have moved into another process group (see proc.kill).
func signalGroup(cmd *exec.Cmd, sig syscall.Signal) {
	if cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-cmd.Process.Pid, sig)
	_ = cmd.Process.Signal(sig)
}

// killGroup SIGKILLs the hook's whole process group. The group id cannot
// have been reused: a process group id stays taken while any member lives.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}
