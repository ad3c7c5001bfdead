//go:build windows

package hookproc

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// run is the runner hooks use on Windows: runJob.
func run(ctx context.Context, s Spec) Result { return runJob(ctx, s) }

// killedExitCode is the exit code TerminateJobObject gives every process of
// a killed tree (Windows has no signals to report instead).
const killedExitCode = 1

// runJob is the Windows runner. Windows has no process groups a parent can
// kill, so each run gets a Job Object: the hook is created suspended,
// assigned to its job and only then resumed, so that nothing it starts can
// leave the job before it exists. The job is created with
// JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE: if this process dies mid-run, the
// system closes the job's handle and the tree dies with it. On timeout,
// cancellation, a failed exit or pipes held past drainGrace the whole job
// is terminated; a run that succeeds releases its job without the kill
// limit, so the helpers it detached live on, as on Unix (see the package
// documentation).
//
// ExtraFiles and ShellFallback are Unix notions (descriptors beyond stdio,
// ENOEXEC): Windows has neither, and they are ignored here.
func runJob(ctx context.Context, s Spec) Result {
	start := time.Now()
	if s.Cap <= 0 {
		s.Cap = DefaultOutputCap
	}
	tctx, cancel := context.WithTimeout(ctx, s.Timeout)
	defer cancel()
	spawnError := func(err error) Result {
		if errors.Is(err, windows.ERROR_BAD_EXE_FORMAT) {
			// Not a program (a text file, say): Hermes' wording.
			return Result{SpawnError: "command not executable", Elapsed: time.Since(start)}
		}
		return Result{SpawnError: spawnErrorText(err), Elapsed: time.Since(start)}
	}
	if s.Verify != nil {
		if err := s.Verify(); err != nil {
			return spawnError(err)
		}
	}
	job, err := newJob()
	if err != nil {
		return spawnError(err)
	}
	// Whatever happens below, the job's handle is closed: with the kill
	// limit still set (every end but success) that also kills the tree.
	defer job.close()

	var killed atomic.Bool
	stdout := &capBuffer{max: s.Cap}
	stderr := &capBuffer{max: s.Cap}
	var cmd *exec.Cmd
	newCmd := func() *exec.Cmd {
		c := exec.CommandContext(tctx, s.Path)
		c.Args = s.Argv
		c.Env = s.Env
		c.Dir = s.Dir
		c.SysProcAttr = &syscall.SysProcAttr{
			CreationFlags: windows.CREATE_SUSPENDED | windows.CREATE_NEW_PROCESS_GROUP,
			CmdLine:       s.CmdLine,
		}
		// A fresh reader per child: concurrent hooks never share read state.
		c.Stdin = bytes.NewReader(s.Stdin)
		c.Stdout, c.Stderr = stdout, stderr
		c.Cancel = func() error {
			killed.Store(true)
			job.terminate()
			// Before it is assigned to the job the process is not the job's:
			// kill it by its own handle too.
			return c.Process.Kill()
		}
		c.WaitDelay = s.drainWait()
		return c
	}
	// A timeout or cancellation that comes while the hook is still being
	// started (a start slower than the timeout on a loaded machine) ends
	// the start with whatever error the killed or never-started process
	// gives ("Invalid parameter."): it is the timeout, or the
	// cancellation, all the same, and reported as one.
	startFailed := func(err error) Result {
		if res, done := ended(ctx, stdout, stderr, start, killed.Load() || tctx.Err() != nil); done {
			return res
		}
		return spawnError(err)
	}
	if err := startRetrying(tctx, func() error { cmd = newCmd(); return cmd.Start() }); err != nil {
		return startFailed(err)
	}
	if err := job.adopt(uint32(cmd.Process.Pid)); err != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return startFailed(err)
	}
	err = cmd.Wait()
	res, done := ended(ctx, stdout, stderr, start, killed.Load())
	if done {
		return res
	}
	if ps := cmd.ProcessState; ps != nil {
		res.Exited = true
		res.ExitCode = ps.ExitCode()
	}
	if res.Exited && res.ExitCode == 0 && !errors.Is(err, exec.ErrWaitDelay) {
		// Success: what it detached is its business (and, once the job is
		// released, no longer ours to kill).
		job.release()
		return res
	}
	// A failed exit, or pipes some descendant still held after the hook
	// was gone: the whole tree dies.
	job.terminate()
	return res
}

// startAttempts bounds how often one hook's start is tried.
const startAttempts = 3

// startRetrying calls start again, up to startAttempts in all, while it
// fails with ERROR_INTERNAL_ERROR and ctx lasts. That is CreateProcess
// saying the new process died while it was being set up, before its
// first instruction — it is created suspended, so no hook code ran and a
// second try cannot run anything twice. Wine gives it when its loader
// dies in a new process's set-up (seen once in CI: a .cmd hook of a
// dispatcher test failed to start with "Internal error."); any other
// error is final.
func startRetrying(ctx context.Context, start func() error) error {
	var err error
	for i := 0; i < startAttempts; i++ {
		if err = start(); !errors.Is(err, windows.ERROR_INTERNAL_ERROR) || ctx.Err() != nil {
			return err
		}
	}
	return err
}

// job is one run's Job Object.
type job struct{ h windows.Handle }

// newJob creates a job whose processes die when its last handle closes.
func newJob() (*job, error) {
	h, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return nil, fmt.Errorf("cannot create a job object: %w", err)
	}
	j := &job{h: h}
	if err := j.setKillOnClose(true); err != nil {
		j.close()
		return nil, fmt.Errorf("cannot set up a job object: %w", err)
	}
	return j, nil
}

func (j *job) setKillOnClose(on bool) error {
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	if on {
		info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	}
	_, err := windows.SetInformationJobObject(j.h, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
	return err
}

// adopt assigns the suspended process pid to the job, then resumes it. The
// pid cannot have been reused: the caller holds the process's handle (in
// its os.Process) and has not waited for it.
func (j *job) adopt(pid uint32) error {
	p, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err != nil {
		return fmt.Errorf("cannot open the hook's process: %w", err)
	}
	err = windows.AssignProcessToJobObject(j.h, p)
	windows.CloseHandle(p)
	if err != nil {
		return fmt.Errorf("cannot put the hook in a job object: %w", err)
	}
	return resumeThreads(pid)
}

// resumeThreads resumes the threads of a process created suspended (os/exec
// closes the main thread's handle, so it is found again by its process id).
func resumeThreads(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return fmt.Errorf("cannot list the hook's threads: %w", err)
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := 0
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return fmt.Errorf("cannot resume the hook: %w", err)
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return fmt.Errorf("cannot resume the hook: %w", err)
		}
		resumed++
	}
	if resumed == 0 {
		return errors.New("cannot resume the hook: no thread found")
	}
	return nil
}

// terminate kills every process in the job; idempotent.
func (j *job) terminate() {
	if j.h != 0 {
		_ = windows.TerminateJobObject(j.h, killedExitCode)
	}
}

// release lifts the kill-on-close limit and closes the job: its processes
// live on. If the limit cannot be lifted, closing kills them: a run's tree
// never outlives this process by accident of an error.
func (j *job) release() {
	if j.h != 0 && j.setKillOnClose(false) == nil {
		j.close()
	}
}

func (j *job) close() {
	if j.h != 0 {
		windows.CloseHandle(j.h)
		j.h = 0
	}
}
