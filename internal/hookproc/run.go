package hookproc

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"slices"
	"syscall"
	"time"
)

// runTagVar names the environment variable that tags one hook run; its
// descendants inherit it, which is how escaped ones are found.
const runTagVar = "HERMES_HOOKS_RUN"

// DefaultOutputCap bounds what is kept of a hook's stdout and of its stderr.
const DefaultOutputCap = 1 << 20

// drainGrace bounds how long we wait for a hook's output pipes to reach EOF
// once the hook has exited or been killed. A grandchild that inherited the
// pipes (a backgrounded "sleep 3600 &") would otherwise keep the dispatcher
// waiting for as long as it lives — the hang both Hermes and Claude Code
// users have reported.
const drainGrace = 500 * time.Millisecond

// drainReads bounds the reads of one drain of a pipe (8 MiB in 32 KiB
// reads) before its caller looks at its deadline again.
const drainReads = 256

// cancelGrace is how long a cancelled run waits for its killed hook to
// exit (SIGKILL takes a moment), so that its tree is killed now rather
// than when it is reaped in the background. A cancelled run waits for
// nothing else: its caller has given up (at an agent's deadline, less a
// margin as short as a quarter of a second) and reads no output.
const cancelGrace = 50 * time.Millisecond

// Spec is one process to run.
type Spec struct {
	// Path is the executable; Argv[0] is what the process sees as its name.
	Path string
	Argv []string
	// CmdLine, when set, is the command line the process gets verbatim
	// (Windows only; Argv is then only what reports show). cmd.exe parses
	// its command line by its own rules, not CommandLineToArgvW's, so a
	// caller starting it quotes for it (see internal/cmdpin).
	CmdLine string
	Env     []string
	Dir     string
	Stdin   []byte
	Timeout time.Duration
	// Cap bounds each of stdout and stderr (0 = DefaultOutputCap).
	Cap int
	// Verify, when set, is called immediately before the process starts;
	// an error (the caller's: say, the files it checked changed since)
	// means the process is not started, and the error is its spawn error.
	Verify func() error
	// ShellFallback: a file the kernel refuses as not executable (ENOEXEC:
	// a script without a #! line) is run by /bin/sh instead, as the shell
	// does for Claude-dialect commands.
	ShellFallback bool
	// ExtraFiles become the process's file descriptors 3, 4, … (the
	// caller's: a sealed copy of the script it checked, say).
	ExtraFiles []*os.File
	// StopGrace: at the hook's own timeout its process group and the hook
	// get SIGTERM, and SIGKILL only this long after unless they are gone,
	// so a script that traps TERM can release what it holds (Claude Code
	// stops a timed-out hook so: SIGTERM to its tree, SIGKILL 1.5 s
	// later). 0: SIGKILL at once (Hermes: subprocess.run's kill). A caller
	// that gives up (ctx) still kills at once. Unix only.
	StopGrace time.Duration
	// tag is the run's tag (runTagVar, added to Env by Run or by the pool
	// that starts a worker): when the run fails, the escaped descendants
	// carrying it are killed too (see BecomeSubreaper).
	tag string
	// grace replaces drainGrace (tests: a grace nobody should wait for).
	grace time.Duration
}

// Result is what happened to a Spec's process.
type Result struct {
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

// Run runs the process s describes and waits for it — never longer than
// its timeout plus a short grace for pipes a descendant still holds — and
// returns what happened. It never returns a Go error: a process that could
// not start has a SpawnError. See the package documentation for what
// happens to the process's descendants.
func Run(ctx context.Context, s Spec) Result {
	s.tagRun()
	return run(ctx, s)
}

// drainWait is the drain grace of this run: drainGrace unless a test set
// its own.
func (s *Spec) drainWait() time.Duration {
	if s.grace > 0 {
		return s.grace
	}
	return drainGrace
}

// tagRun gives the run its tag (see BecomeSubreaper) once this process is
// the subreaper; a run without a tag is treated as nobody's at exit.
func (s *Spec) tagRun() {
	if s.tag = runTag(); s.tag != "" {
		s.Env = append(slices.Clip(s.Env), runTagVar+"="+s.tag)
	}
}

// ended is the Result of an exec.Cmd-started hook once Wait returned: its
// captured output, and whether our kill (killed: the timeout or the
// context) ended it, which then is all there is to say (done).
func ended(ctx context.Context, stdout, stderr *capBuffer, start time.Time, killed bool) (res Result, done bool) {
	res = Result{
		Stdout:          stdout.buf.Bytes(),
		Stderr:          stderr.buf.Bytes(),
		StdoutTruncated: stdout.truncated,
		StderrTruncated: stderr.truncated,
		Elapsed:         time.Since(start),
	}
	if killed {
		if ctx.Err() != nil {
			res.Cancelled = true
		} else {
			res.TimedOut = true
		}
		return res, true
	}
	return res, false
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
	case errors.Is(err, syscall.ENOEXEC):
		// A script without a #! line (run by the kernel, not a shell):
		// errno's words alone said nothing of the fix.
		return "exec format error: neither a script with a #! line nor a program built for this system: make a script's first line #!/bin/sh, or the interpreter it is written for"
	}
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	return err.Error()
}

// rewind puts each extra file back at its start before a child inherits
// it. A pinned script's copy is read by its interpreter through /dev/fd/3,
// which on macOS and the BSDs is dup(3) and shares this offset: a second
// start (a retry, a worker's restart) would otherwise read from its end —
// an empty script, which "succeeds". Pipes cannot seek; that error means
// nothing here.
func rewind(files []*os.File) {
	for _, f := range files {
		if f != nil {
			_, _ = f.Seek(0, io.SeekStart)
		}
	}
}
