//go:build linux && !hermes_portable

package hookproc

import (
	"context"
	"encoding/binary"
	"sync"
	"syscall"
	"time"
	"unsafe"
)

// The Linux runner drives the child directly: syscall.ForkExec (a vfork
// clone) with a pidfd, non-blocking pipes, and one ppoll loop on the calling
// goroutine that feeds stdin, drains stdout and stderr, and notices the
// child's exit, the timeout and cancellation. Compared with os/exec it starts
// no goroutines, registers nothing with the netpoller and arms no timers, so
// a dispatch costs little more than the spawn itself; and it never discards
// output that is already in a pipe: when the hook has exited but something
// still holds its pipes past drainGrace, whatever was written is drained
// without blocking before the pipes are closed (os/exec's WaitDelay closes
// them unread, which under heavy load could lose a guard's block).

const (
	pollIn   = 0x1
	pollOut  = 0x4
	pollErr  = 0x8
	pollHup  = 0x10
	pollNval = 0x20
)

type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

// ppoll waits for events on fds for at most d (d < 0: no limit).
func ppoll(fds []pollFd, d time.Duration) (int, error) {
	var tsp unsafe.Pointer
	var ts syscall.Timespec
	if d >= 0 {
		ts = syscall.NsecToTimespec(int64(d))
		tsp = unsafe.Pointer(&ts)
	}
	n, _, e := syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), uintptr(len(fds)), uintptr(tsp), 0, 0, 0)
	if e != 0 {
		return 0, e
	}
	return int(n), nil
}

var scratchPool = sync.Pool{New: func() any { b := make([]byte, 32<<10); return &b }}

// drainFd reads fd until it would block or reaches EOF, or drainReads
// times; it reports EOF (or an error, which ends the stream just the
// same). The bound: a writer that is always ahead of us (a flood from
// several processes, on a machine where they outrun the reader) would
// otherwise keep the poll loop from its deadline, and overdue's final
// drain from its end, for as long as it writes.
func drainFd(fd int, into *capBuffer, scratch []byte) (eof bool) {
	for range drainReads {
		n, err := syscall.Read(fd, scratch)
		switch {
		case n > 0:
			into.Write(scratch[:n])
		case err == syscall.EINTR:
		case err == syscall.EAGAIN:
			return false
		default: // 0 bytes: EOF; other errors end the stream too
			return true
		}
	}
	return false
}

func closeFd(fd *int) {
	if *fd >= 0 {
		_ = syscall.Close(*fd)
		*fd = -1
	}
}

// runPoll starts the process in its own process group, feeds it Stdin,
// captures its output up to the cap, and waits — never longer than its
// timeout plus drainGrace. On timeout or cancellation the whole process
// group is killed. If the hook exits but something it started still holds
// its output pipes after drainGrace, what they hold is read and that group
// is killed too. Once it is over, a hook that did not succeed (see
// proc.succeeded) has its whole tree killed, escaped descendants included.
func runPoll(ctx context.Context, s Spec) (res Result) {
	start := time.Now()
	defer func() { res.Elapsed = time.Since(start) }()
	if s.Cap <= 0 {
		s.Cap = DefaultOutputCap
	}
	p, spawnErr := spawn(s)
	if spawnErr != "" {
		return Result{SpawnError: spawnErr}
	}
	defer p.close()
	trackChild(p.pid)
	defer func() {
		if !p.reapsLater { // else result untracks it once reaped
			untrackChild(p.pid)
		}
	}()
	openRun(s.tag)
	if stop := p.wakeOnCancel(ctx); stop != nil {
		defer stop()
	}
	scratchp := scratchPool.Get().(*[]byte)
	defer scratchPool.Put(scratchp)
	p.scratch = *scratchp
	p.stdout, p.stderr = capBuffer{max: s.Cap}, capBuffer{max: s.Cap}
	p.grace = s.drainWait()
	p.stopGrace = s.StopGrace
	p.payload = s.Stdin
	p.writeStdin()
	p.loop(ctx, start.Add(s.Timeout))
	return p.result(s.tag)
}

// proc is one running hook, as runPoll drives it.
type proc struct {
	pid, pidfd                  int
	stdinFd, stdoutFd, stderrFd int
	wakeFd                      int
	payload                     []byte
	stdout, stderr              capBuffer
	scratch                     []byte
	ws                          syscall.WaitStatus
	exited, killed              bool
	// clean: it exited by itself with status 0 (known from the moment it
	// exited, before it is reaped).
	clean               bool
	timedOut, cancelled bool
	// held: it exited, but something still held its pipes at the end of
	// the grace — a helper it did not detach.
	held       bool
	reapsLater bool      // killed, not dead at the run's end: result reaps it
	graceEnd   time.Time // set once the hook has exited or been killed
	grace      time.Duration
	// stopGrace is Spec.StopGrace; termEnd is set when the timeout sent
	// SIGTERM, and ends its grace.
	stopGrace time.Duration
	termEnd   time.Time
}

// spawn creates the pipes and starts the process: in its own process group,
// with a pidfd, dying with the dispatcher (Pdeathsig). Spec.Verify (the
// caller's check that the files it approved are unchanged) runs last thing
// before the start, so the window in which they could change unseen is as
// short as can be.
func spawn(s Spec) (*proc, string) {
	// Child ends are inherited through ForkExec's Files; ours are
	// close-on-exec so that no other hook, started concurrently, inherits
	// them (and holds our pipes open).
	var in, out, errp [2]int
	fds := []*[2]int{&in, &out, &errp}
	for i, p := range fds {
		if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC); err != nil {
			for _, q := range fds[:i] {
				closeFd(&q[0])
				closeFd(&q[1])
			}
			return nil, "cannot create pipes: " + err.Error()
		}
	}
	p := &proc{pidfd: -1, wakeFd: -1}
	var err error
	if s.Verify != nil {
		err = s.Verify()
	}
	if err == nil {
		files := []uintptr{uintptr(in[0]), uintptr(out[1]), uintptr(errp[1])}
		for _, f := range s.ExtraFiles {
			files = append(files, f.Fd())
		}
		attr := &syscall.ProcAttr{
			Dir:   s.Dir,
			Env:   s.Env,
			Files: files,
			// Pdeathsig: a hook dies with the dispatcher that started it,
			// however the dispatcher dies.
			Sys: &syscall.SysProcAttr{Setpgid: true, PidFD: &p.pidfd, Pdeathsig: syscall.SIGKILL},
		}
		spawnLock()
		p.pid, err = syscall.ForkExec(s.Path, s.Argv, attr)
		if err == syscall.ENOEXEC && s.ShellFallback {
			// A script without a #! line: the shell runs it itself.
			p.pidfd = -1
			p.pid, err = syscall.ForkExec("/bin/sh", append([]string{"/bin/sh", s.Path}, s.Argv[1:]...), attr)
		}
		if err != nil {
			spawnUnlock()
		}
	}
	closeFd(&in[0])
	closeFd(&out[1])
	closeFd(&errp[1])
	p.stdinFd, p.stdoutFd, p.stderrFd = in[1], out[0], errp[0]
	if err != nil {
		p.close()
		return nil, spawnErrorText(err)
	}
	for _, fd := range []int{p.stdinFd, p.stdoutFd, p.stderrFd} {
		_ = syscall.SetNonblock(fd, true)
	}
	return p, ""
}

func (p *proc) close() {
	closeFd(&p.stdinFd)
	closeFd(&p.stdoutFd)
	closeFd(&p.stderrFd)
	closeFd(&p.pidfd)
	closeFd(&p.wakeFd)
}

// wakeOnCancel makes cancellation wake the poll through an eventfd; a
// context that can never be cancelled needs none. It returns the function
// that stops watching, or nil.
func (p *proc) wakeOnCancel(ctx context.Context) func() bool {
	if ctx.Done() == nil {
		return nil
	}
	fd, _, e := syscall.RawSyscall(syscall.SYS_EVENTFD2, 0, syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if e != 0 {
		return nil
	}
	p.wakeFd = int(fd)
	return context.AfterFunc(ctx, func() {
		var one [8]byte
		binary.LittleEndian.PutUint64(one[:], 1)
		_, _ = syscall.Write(int(fd), one[:])
	})
}

// writeStdin writes as much of the payload as the pipe takes now, and
// closes stdin once it is all written or the hook stopped reading.
func (p *proc) writeStdin() {
	for len(p.payload) > 0 {
		n, err := syscall.Write(p.stdinFd, p.payload)
		if n > 0 {
			p.payload = p.payload[n:]
		}
		if err == syscall.EINTR {
			continue
		}
		if err == syscall.EAGAIN {
			return
		}
		if err != nil {
			// EPIPE: the hook exited or closed stdin without reading it
			// all. That is its business, not a failure.
			break
		}
	}
	closeFd(&p.stdinFd)
}

// kill SIGKILLs the hook's process group and the hook itself, and starts
// the drain grace. The hook by its pid too: it leads its group, so it
// cannot setsid, but it can move into another group of its session (its
// dispatcher's: setpgid(0, getpgid(getppid()))), which the group kill then
// misses. Not reaped yet, its pid names nobody else.
func (p *proc) kill() {
	p.killed = true
	p.signal(syscall.SIGKILL)
	p.graceEnd = time.Now().Add(p.grace)
}

// terminate is a timed-out hook's first stop when it has a StopGrace:
// SIGTERM to whom kill reaches, SIGKILL when the grace ends (overdue) or
// the caller gives up (cancel).
func (p *proc) terminate() {
	p.signal(syscall.SIGTERM)
	p.termEnd = time.Now().Add(p.stopGrace)
}

// signal sends sig to the hook's process group and to the hook itself.
func (p *proc) signal(sig syscall.Signal) {
	_ = syscall.Kill(-p.pid, sig)
	_ = syscall.Kill(p.pid, sig)
}

// cancel handles the caller giving up, whenever it comes: before the hook
// exited, at its own timeout's kill, or while a helper holds its pipes.
// Nobody reads this run's output any more, so only the hook's exit is
// waited for, briefly (cancelGrace), not the drain grace: a refusal due
// at the agent's deadline less a quarter of a second must not wait for a
// helper holding the pipes while the agent gives up and lets the call by.
func (p *proc) cancel() {
	closeFd(&p.wakeFd) // seen: AfterFunc wrote its one word, poll it no more
	if !p.exited && !p.killed {
		// Given up on while SIGTERM's grace runs, it had timed out first.
		p.cancelled = !p.timedOut
		p.kill()
	}
	if end := time.Now().Add(cancelGrace); p.graceEnd.IsZero() || end.Before(p.graceEnd) {
		p.graceEnd = end
	}
}

// loop feeds stdin, drains stdout and stderr, and watches for the exit, the
// deadline and cancellation, until the hook has exited and its pipes are
// closed — or the grace after an exit or a kill has run out.
func (p *proc) loop(ctx context.Context, deadline time.Time) {
	for !(p.exited && p.stdoutFd < 0 && p.stderrFd < 0) {
		limit := deadline
		if !p.termEnd.IsZero() {
			limit = p.termEnd
		}
		if !p.graceEnd.IsZero() {
			limit = p.graceEnd
		}
		if !time.Now().Before(limit) {
			if p.overdue(ctx) {
				return
			}
			continue
		}
		p.poll(time.Until(limit))
	}
}

// overdue handles a passed deadline: at the hook's own timeout its group is
// killed (and the loop goes on for the grace); at the end of the grace what
// the pipes hold is kept and what is left of the group killed. It reports
// whether the loop is over.
func (p *proc) overdue(ctx context.Context) bool {
	switch {
	case !p.exited && !p.killed:
		if p.termEnd.IsZero() {
			p.timedOut = ctx.Err() == nil
			p.cancelled = ctx.Err() != nil
			if p.timedOut && p.stopGrace > 0 {
				p.terminate()
				return false
			}
		}
		p.kill()
		return false
	}
	// Exited with the pipes still held by something else, or given up on
	// (killed, and not dead at the end of the grace: stuck in the kernel,
	// or cancelled; result reaps it in the background): keep what is
	// already written, then kill what is left of the group.
	p.held = true
	if p.stdoutFd >= 0 {
		drainFd(p.stdoutFd, &p.stdout, p.scratch)
	}
	if p.stderrFd >= 0 {
		drainFd(p.stderrFd, &p.stderr, p.scratch)
	}
	_ = syscall.Kill(-p.pid, syscall.SIGKILL)
	return true
}

// poll waits up to wait for something to happen, and handles it.
func (p *proc) poll(wait time.Duration) {
	// Without a pidfd (kernels before 5.3) the exit is polled with WNOHANG
	// on a short tick.
	if p.pidfd < 0 && !p.exited && wait > 10*time.Millisecond {
		wait = 10 * time.Millisecond
	}
	var pfds [5]pollFd
	n := 0
	add := func(fd, events int) int {
		if fd < 0 {
			return -1
		}
		pfds[n] = pollFd{fd: int32(fd), events: int16(events)}
		n++
		return n - 1
	}
	iIn, iOut, iErr := add(p.stdinFd, pollOut), add(p.stdoutFd, pollIn), add(p.stderrFd, pollIn)
	iPid, iWake := -1, add(p.wakeFd, pollIn)
	if !p.exited {
		iPid = add(p.pidfd, pollIn)
	}
	if n == 0 {
		// Only the exit is left to see and there is no pidfd.
		pfds[0] = pollFd{fd: -1}
		n = 1
	}
	if _, err := ppoll(pfds[:n], wait); err != nil && err != syscall.EINTR {
		// Cannot wait properly: kill the group rather than hang.
		p.kill()
	}
	ready := func(i int) bool { return i >= 0 && pfds[i].revents != 0 }
	if ready(iIn) {
		if pfds[iIn].revents&(pollErr|pollHup|pollNval) != 0 {
			closeFd(&p.stdinFd)
		} else {
			p.writeStdin()
		}
	}
	if ready(iOut) && drainFd(p.stdoutFd, &p.stdout, p.scratch) {
		closeFd(&p.stdoutFd)
	}
	if ready(iErr) && drainFd(p.stderrFd, &p.stderr, p.scratch) {
		closeFd(&p.stderrFd)
	}
	if ready(iWake) {
		p.cancel()
	}
	if !p.exited && (ready(iPid) || p.pidfd < 0) && p.peekExit() {
		p.exited = true
		closeFd(&p.stdinFd)
		if p.graceEnd.IsZero() {
			p.graceEnd = time.Now().Add(p.grace)
		}
	}
}

// succeeded reports whether the hook ran to a successful end: it exited
// by itself with status 0, within its timeout, uncancelled, and nothing it
// left behind still held its pipes. Such a hook keeps the helpers it
// detached, as in Hermes and Codex (a SessionStart hook may start a
// background service). Any other end — another exit status (a Claude
// exit-2 block too), death by a signal, a timeout, cancellation, a runner
// that could not wait — is a failure, and the hook's whole tree dies with
// it.
func (p *proc) succeeded() bool {
	return p.exited && p.clean && !p.killed && !p.held && !p.timedOut
}

// result is what happened, once the loop is over. A hook that did not
// succeed has its whole tree killed: its process group, and its escaped
// descendants (those carrying its run tag).
func (p *proc) result(tag string) Result {
	res := Result{
		Stdout: p.stdout.buf.Bytes(), Stderr: p.stderr.buf.Bytes(),
		StdoutTruncated: p.stdout.truncated, StderrTruncated: p.stderr.truncated,
		TimedOut: p.timedOut, Cancelled: p.cancelled,
	}
	switch {
	case !p.exited:
		// Killed but not dead yet: its tree is killed once it is, when
		// the orphans it leaves have been reparented here (its run stays
		// open until then, so KillEscaped at exit kills them too).
		// Tracked until reaped here, lest another wait take it and this
		// one a new hook reusing its pid.
		p.reapsLater = true
		dying.Store(p.pid, struct{}{})
		go func() {
			// Dead (its orphans reparented here) before it leaves dying,
			// and out of dying before it is reaped: once reaped its pid
			// may name another process, whose children are not ours.
			p.awaitDeath()
			dying.Delete(p.pid)
			p.reap(0)
			untrackChild(p.pid)
			killTree(tag)
		}()
	case p.succeeded():
		closeRun(tag) // its helpers carry a released tag from now on
	default:
		if p.exited && !p.killed && !p.held {
			// It failed by itself: what it left in its group goes. (Not
			// reaped yet, it keeps the group id taken.)
			_ = syscall.Kill(-p.pid, syscall.SIGKILL)
		}
		// Killing the group does not reach descendants that left it
		// (setsid); as the subreaper we find them by their run tag.
		killTree(tag)
	}
	if p.exited {
		p.reap(0) // it has exited: this does not block
	}
	if p.killed || !p.exited {
		res.TimedOut = res.TimedOut || (!res.Cancelled && !p.exited)
		return res
	}
	res.Exited = true
	switch {
	case p.ws.Exited():
		res.ExitCode = p.ws.ExitStatus()
	case p.ws.Signaled():
		res.ExitCode = -int(p.ws.Signal())
	}
	return res
}
