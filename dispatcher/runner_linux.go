//go:build linux

package dispatcher

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

// drainFd reads fd until it would block or reaches EOF; it reports EOF (or
// an error, which ends the stream just the same).
func drainFd(fd int, into *capBuffer, scratch []byte) (eof bool) {
	for {
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
// is killed too.
func runPoll(ctx context.Context, s runSpec) (res runResult) {
	start := time.Now()
	defer func() { res.Elapsed = time.Since(start) }()
	if s.Cap <= 0 {
		s.Cap = DefaultOutputCap
	}

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
			return runResult{SpawnError: "cannot create pipes: " + err.Error()}
		}
	}
	pidfd := -1
	var pid int
	var err error
	// The consent gate's files are checked last thing before the start, so
	// the window in which they could change unseen is as short as can be.
	if s.Verify != nil {
		if verr := s.Verify(); verr != nil {
			err = verr
		}
	}
	if err == nil {
		files := []uintptr{uintptr(in[0]), uintptr(out[1]), uintptr(errp[1])}
		if s.Script != nil {
			files = append(files, s.Script.Fd())
		}
		attr := &syscall.ProcAttr{
			Dir:   s.Dir,
			Env:   s.Env,
			Files: files,
			// Pdeathsig: a hook dies with the dispatcher that started it,
			// however the dispatcher dies.
			Sys: &syscall.SysProcAttr{Setpgid: true, PidFD: &pidfd, Pdeathsig: syscall.SIGKILL},
		}
		spawnLock()
		pid, err = syscall.ForkExec(s.Path, s.Argv, attr)
		if err == syscall.ENOEXEC && s.ShellFallback {
			// A script without a #! line: the shell runs it itself.
			pidfd = -1
			pid, err = syscall.ForkExec("/bin/sh", append([]string{"/bin/sh", s.Path}, s.Argv[1:]...), attr)
		}
		if err != nil {
			spawnUnlock()
		}
	}
	closeFd(&in[0])
	closeFd(&out[1])
	closeFd(&errp[1])
	stdinFd, stdoutFd, stderrFd := in[1], out[0], errp[0]
	defer func() {
		closeFd(&stdinFd)
		closeFd(&stdoutFd)
		closeFd(&stderrFd)
		closeFd(&pidfd)
	}()
	if err != nil {
		return runResult{SpawnError: spawnErrorText(err)}
	}
	trackChild(pid)
	defer untrackChild(pid)
	for _, fd := range []int{stdinFd, stdoutFd, stderrFd} {
		_ = syscall.SetNonblock(fd, true)
	}

	// Cancellation wakes the poll through an eventfd; contexts that can
	// never be cancelled need none.
	wakeFd := -1
	if ctx.Done() != nil {
		if fd, _, e := syscall.RawSyscall(syscall.SYS_EVENTFD2, 0, syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0); e == 0 {
			wakeFd = int(fd)
			defer closeFd(&wakeFd)
			stop := context.AfterFunc(ctx, func() {
				var one [8]byte
				binary.LittleEndian.PutUint64(one[:], 1)
				_, _ = syscall.Write(wakeFd, one[:])
			})
			defer stop()
		}
	}

	stdout := &capBuffer{max: s.Cap}
	stderr := &capBuffer{max: s.Cap}
	scratchp := scratchPool.Get().(*[]byte)
	defer scratchPool.Put(scratchp)
	scratch := *scratchp

	payload := s.Stdin
	writeStdin := func() {
		for len(payload) > 0 {
			n, err := syscall.Write(stdinFd, payload)
			if n > 0 {
				payload = payload[n:]
			}
			if err == syscall.EINTR {
				continue
			}
			if err == syscall.EAGAIN {
				return
			}
			if err != nil {
				// EPIPE: the hook exited or closed stdin without
				// reading it all. That is its business, not a failure.
				break
			}
		}
		closeFd(&stdinFd)
	}
	writeStdin()

	var (
		ws       syscall.WaitStatus
		exited   bool
		killed   bool
		deadline = start.Add(s.Timeout)
		graceEnd time.Time // set once the hook has exited or been killed
	)
	reap := func(flags int) bool {
		for {
			wpid, err := syscall.Wait4(pid, &ws, flags, nil)
			if err == syscall.EINTR {
				continue
			}
			return wpid == pid
		}
	}
	kill := func() {
		killed = true
		_ = syscall.Kill(-pid, syscall.SIGKILL)
		graceEnd = time.Now().Add(drainGrace)
	}
	var pfds [5]pollFd
	for {
		if exited && stdoutFd < 0 && stderrFd < 0 {
			break
		}
		now := time.Now()
		limit := deadline
		if !graceEnd.IsZero() {
			limit = graceEnd
		}
		if !now.Before(limit) {
			switch {
			case !exited && !killed:
				// The hook's own timeout: kill its whole group, then give
				// the group drainGrace to die and the pipes to drain.
				res.TimedOut = ctx.Err() == nil
				res.Cancelled = ctx.Err() != nil
				kill()
				continue
			case !exited:
				// Killed, and still not gone after drainGrace (stuck in
				// the kernel): reap it in the background, stop waiting.
				go reap(0)
			}
			// Exited (or given up on) with the pipes still held by
			// something else: keep what is already written, then kill
			// what is left of the group.
			if stdoutFd >= 0 {
				drainFd(stdoutFd, stdout, scratch)
			}
			if stderrFd >= 0 {
				drainFd(stderrFd, stderr, scratch)
			}
			_ = syscall.Kill(-pid, syscall.SIGKILL)
			break
		}
		wait := limit.Sub(now)
		// Without a pidfd (kernels before 5.3) the exit is polled with
		// WNOHANG on a short tick.
		if pidfd < 0 && !exited && wait > 10*time.Millisecond {
			wait = 10 * time.Millisecond
		}
		n := 0
		add := func(fd, events int) int {
			i := n
			pfds[n] = pollFd{fd: int32(fd), events: int16(events)}
			n++
			return i
		}
		iIn, iOut, iErr, iPid, iWake := -1, -1, -1, -1, -1
		if stdinFd >= 0 {
			iIn = add(stdinFd, pollOut)
		}
		if stdoutFd >= 0 {
			iOut = add(stdoutFd, pollIn)
		}
		if stderrFd >= 0 {
			iErr = add(stderrFd, pollIn)
		}
		if pidfd >= 0 && !exited {
			iPid = add(pidfd, pollIn)
		}
		if wakeFd >= 0 && !killed && !exited {
			iWake = add(wakeFd, pollIn)
		}
		if n == 0 {
			// Only the exit is left to see and there is no pidfd.
			pfds[0] = pollFd{fd: -1}
			n = 1
		}
		if _, err := ppoll(pfds[:n], wait); err != nil && err != syscall.EINTR {
			// Cannot wait properly: kill the group rather than hang.
			kill()
		}
		ready := func(i int) bool { return i >= 0 && pfds[i].revents != 0 }
		if ready(iIn) {
			if pfds[iIn].revents&(pollErr|pollHup|pollNval) != 0 {
				closeFd(&stdinFd)
			} else {
				writeStdin()
			}
		}
		if ready(iOut) && drainFd(stdoutFd, stdout, scratch) {
			closeFd(&stdoutFd)
		}
		if ready(iErr) && drainFd(stderrFd, stderr, scratch) {
			closeFd(&stderrFd)
		}
		if ready(iWake) {
			res.Cancelled = true
			kill()
		}
		if !exited && (ready(iPid) || pidfd < 0) && reap(syscall.WNOHANG) {
			exited = true
			closeFd(&stdinFd)
			if graceEnd.IsZero() {
				graceEnd = time.Now().Add(drainGrace)
			}
		}
	}

	res.Stdout, res.Stderr = stdout.buf.Bytes(), stderr.buf.Bytes()
	res.StdoutTruncated, res.StderrTruncated = stdout.truncated, stderr.truncated
	if killed && s.Tag != "" {
		// Killing the group does not reach descendants that left it
		// (setsid); as the subreaper we find them by their run tag.
		killEscaped(s.Tag)
	}
	if killed || !exited {
		res.TimedOut = res.TimedOut || (!res.Cancelled && !exited)
		return res
	}
	res.Exited = true
	switch {
	case ws.Exited():
		res.ExitCode = ws.ExitStatus()
	case ws.Signaled():
		res.ExitCode = -int(ws.Signal())
	}
	return res
}
