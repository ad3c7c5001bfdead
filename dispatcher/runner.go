package dispatcher

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os/exec"
	"sync/atomic"
	"syscall"
	"time"
)

// DefaultOutputCap bounds what is kept of a hook's stdout and of its stderr.
const DefaultOutputCap = 1 << 20

// drainGrace bounds how long we wait for a hook's output pipes to reach EOF
// once the hook has exited or been killed. A grandchild that inherited the
// pipes (a backgrounded "sleep 3600 &") would otherwise keep the dispatcher
// waiting for as long as it lives — the hang both Hermes and Claude Code
// users have reported.
const drainGrace = 500 * time.Millisecond

// runSpec is one process to run.
type runSpec struct {
	// Path is the executable; Argv[0] is what the process sees as its name.
	Path    string
	Argv    []string
	Env     []string
	Dir     string
	Stdin   []byte
	Timeout time.Duration
	// Cap bounds each of stdout and stderr (0 = DefaultOutputCap).
	Cap int
}

// runResult is what happened to it.
type runResult struct {
	// ExitCode is valid when Exited; negative means killed by that signal.
	ExitCode        int
	Exited          bool
	Stdout, Stderr  []byte
	StdoutTruncated bool
	StderrTruncated bool
	// TimedOut: killed at its own timeout. Cancelled: killed because the
	// caller's context ended. SpawnError: never started.
	TimedOut   bool
	Cancelled  bool
	SpawnError string
	Elapsed    time.Duration
}

// capBuffer keeps the first max bytes written to it and counts (but drops)
// the rest, so a hook printing a gigabyte costs a megabyte.
type capBuffer struct {
	buf       bytes.Buffer
	max       int
	truncated bool
}

func (c *capBuffer) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		if len(p) <= room {
			c.buf.Write(p)
			return len(p), nil
		}
		c.buf.Write(p[:room])
	}
	c.truncated = true
	return len(p), nil
}

// run starts the process in its own process group, feeds it Stdin, captures
// its output up to the cap, and waits — never longer than its timeout plus
// drainGrace. On timeout or cancellation the whole process group is killed.
// If the hook exits but something it started still holds its output pipes
// after drainGrace, that group is killed too: we stop listening, and a
// process left writing into a closed pipe would only die of SIGPIPE later.
func run(ctx context.Context, s runSpec) runResult {
	start := time.Now()
	if s.Cap <= 0 {
		s.Cap = DefaultOutputCap
	}
	tctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()

	cmd := exec.CommandContext(tctx, s.Path)
	cmd.Args = s.Argv
	cmd.Env = s.Env
	cmd.Dir = s.Dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// A fresh reader per child: concurrent hooks never share read state.
	cmd.Stdin = bytes.NewReader(s.Stdin)
	stdout := &capBuffer{max: s.Cap}
	stderr := &capBuffer{max: s.Cap}
	cmd.Stdout, cmd.Stderr = stdout, stderr

	var killed atomic.Bool
	cmd.Cancel = func() error {
		killed.Store(true)
		return killGroup(cmd)
	}
	cmd.WaitDelay = drainGrace

	if err := cmd.Start(); err != nil {
		return runResult{SpawnError: spawnErrorText(err), Elapsed: time.Since(start)}
	}
	err := cmd.Wait()
	if errors.Is(err, exec.ErrWaitDelay) {
		// The hook is gone but its pipes were held open: clean up whatever
		// of its process group is left.
		_ = killGroup(cmd)
	}
	res := runResult{
		Stdout:          stdout.buf.Bytes(),
		Stderr:          stderr.buf.Bytes(),
		StdoutTruncated: stdout.truncated,
		StderrTruncated: stderr.truncated,
		Elapsed:         time.Since(start),
	}
	if killed.Load() {
		if ctx.Err() != nil {
			res.Cancelled = true
		} else {
			res.TimedOut = true
		}
		return res
	}
	if ps := cmd.ProcessState; ps != nil {
		res.Exited = true
		res.ExitCode = ps.ExitCode()
		if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.ExitCode = -int(ws.Signal())
		}
	}
	return res
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

// spawnErrorText words a start failure as Hermes does: "command not found"
// for a missing file, "command not executable" for a permission problem,
// otherwise the OS's own text.
func spawnErrorText(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Op == "chdir" {
		return "cannot enter working directory " + pe.Path + ": " + pe.Err.Error()
	}
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, exec.ErrNotFound):
		return "command not found"
	case errors.Is(err, fs.ErrPermission), errors.Is(err, syscall.EISDIR):
		return "command not executable"
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	return err.Error()
}
