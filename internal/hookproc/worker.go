//go:build unix

package hookproc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// worker is one live worker process.
type worker struct {
	cmd *exec.Cmd
	// stdin and stdout are pipes with deadlines: the request goroutine
	// writes the payload and reads the reply itself (no hand-off to a
	// reader goroutine, which costs more than the round trip on a busy
	// machine), bounded by the request's timeout.
	stdin  *os.File
	stdout *os.File
	rd     *bufio.Reader
	cap    int
	stderr *stderrPump
	exited chan struct{}
	// exitCtx is done when the worker has exited (with exited): what a
	// request registers on (context.AfterFunc) to stop waiting for a
	// reply no process is left to write, without a goroutine of its own.
	exitCtx context.Context
	idle    *time.Timer
	// tag is the run tag in the worker's environment (see Spec.tag):
	// when the worker ends, its escaped descendants are killed by it.
	tag string
}

// errLongReply: a reply line past the output cap.
var errLongReply = errors.New("printed a reply longer than the output cap")

// send writes one request line, within the deadline set on the pipe.
func (w *worker) send(line []byte) error {
	_, err := w.stdin.Write(line)
	return err
}

// receive reads one reply line (blank lines skipped), within the deadline
// set on the pipe. A line past the cap is errLongReply, with the cap's
// worth of it (as Run keeps of a one-shot hook's stdout).
//
// reply is what an interrupted read kept of the line (nil to start one);
// on any other error the line so far is returned with it, so that a read
// cut short by a deadline can go on where it stopped.
func (w *worker) receive(reply []byte) ([]byte, error) {
	for {
		for {
			chunk, err := w.rd.ReadSlice('\n')
			if len(reply)+len(chunk) > w.cap {
				return append(reply, chunk[:w.cap-len(reply)]...), errLongReply
			}
			reply = append(reply, chunk...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				return reply, err
			}
			break
		}
		if len(bytes.TrimSpace(reply)) > 0 {
			return reply, nil
		}
		reply = reply[:0]
	}
}

// readable reports whether f has data (or EOF) waiting, without reading.
func readable(f *os.File) bool { return fsutil.Readable(f) }

// startWorker starts the process of spec as a worker.
func startWorker(s Spec) (*worker, error) {
	if s.Verify != nil {
		if err := s.Verify(); err != nil {
			return nil, err
		}
	}
	if s.Cap <= 0 {
		s.Cap = DefaultOutputCap
	}
	s.tagRun()
	w := &worker{cap: s.Cap, exited: make(chan struct{}), tag: s.tag}
	newCmd := func(path string, argv []string) *exec.Cmd {
		cmd := exec.Command(path)
		cmd.Args = argv
		cmd.Env = append(s.Env[:len(s.Env):len(s.Env)], WorkerEnv+"=1")
		cmd.Dir = s.Dir
		cmd.SysProcAttr = workerProcAttr()
		rewind(s.ExtraFiles)
		cmd.ExtraFiles = s.ExtraFiles
		return cmd
	}
	var parent, child [3]*os.File // stdin, stdout, stderr
	defer func() {
		for _, f := range child {
			if f != nil {
				f.Close() // the worker has its copies
			}
		}
	}()
	for i := range 3 {
		r, wr, err := os.Pipe()
		if err != nil {
			for _, f := range parent {
				if f != nil {
					f.Close()
				}
			}
			return nil, err
		}
		if i == 0 {
			child[i], parent[i] = r, wr
		} else {
			parent[i], child[i] = r, wr
		}
	}
	start := func(path string, argv []string) (*exec.Cmd, error) {
		cmd := newCmd(path, argv)
		cmd.Stdin, cmd.Stdout, cmd.Stderr = child[0], child[1], child[2]
		return cmd, cmd.Start()
	}
	// Tracked as a hook is (see BecomeSubreaper): the reaper must never
	// take a worker, or its zombie, for an escaped descendant.
	spawnLock()
	cmd, err := start(s.Path, s.Argv)
	if errors.Is(err, syscall.ENOEXEC) && s.ShellFallback {
		cmd, err = start("/bin/sh", append([]string{"/bin/sh", s.Path}, s.Argv[1:]...))
	}
	if err != nil {
		spawnUnlock()
	} else {
		trackChild(cmd.Process.Pid)
	}
	if err == nil {
		w.stderr, err = newStderrPump(parent[2], s.Cap)
		if err != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			_ = cmd.Wait()
			untrackChild(cmd.Process.Pid)
		}
	}
	if err != nil {
		for _, f := range parent {
			f.Close()
		}
		return nil, err
	}
	w.cmd, w.stdin, w.stdout = cmd, parent[0], parent[1]
	w.rd = bufio.NewReaderSize(w.stdout, 64<<10)
	openRun(w.tag)
	var exit context.CancelFunc
	w.exitCtx, exit = context.WithCancel(context.Background())
	go func() {
		_ = cmd.Wait()
		untrackChild(cmd.Process.Pid)
		close(w.exited)
		exit()
	}()
	return w, nil
}

func (w *worker) takeStderr() []byte { return w.stderr.take() }

// stop ends a worker: EOF on its stdin, then its process group is killed
// if it has not exited within stopGrace. Whatever it started goes with it,
// the descendants that left its group too.
func (w *worker) stop() {
	w.stdin.Close()
	t := time.NewTimer(stopGrace)
	defer t.Stop()
	select {
	case <-w.exited:
		// Whatever it left in its group goes too.
		_ = syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
		w.ended()
	case <-t.C:
		w.kill()
	}
}

// kill ends a worker and its process group at once, waits for it, and
// kills its escaped descendants (those carrying its run tag), as the
// one-shot runner does for a hook that timed out. The worker by its own
// pid too (os.Process: never a reused one): it may have moved into another
// process group of its session, which the group kill misses — and the
// request that killed it used to wait for its exit forever. The wait is
// bounded all the same (a process stuck in the kernel does not die at
// once): past stopGrace the rest of the clean-up happens when it exits.
func (w *worker) kill() {
	_ = syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
	_ = w.cmd.Process.Signal(syscall.SIGKILL)
	w.stdin.Close()
	t := time.NewTimer(stopGrace)
	defer t.Stop()
	select {
	case <-w.exited:
		w.ended()
	case <-t.C:
		go func() { <-w.exited; w.ended() }()
	}
}

// ended releases what is left of an exited worker: its pipes and its
// escaped descendants.
func (w *worker) ended() {
	w.stdout.Close()
	w.stderr.close()
	killTree(w.tag)
}

// exitWord says how the worker ended: its status once its Wait returned,
// else "unknown status" (a kill whose wait ran out: ProcessState is still
// being written by the Wait goroutine).
func (w *worker) exitWord() string {
	if !isClosed(w.exited) {
		return exitWord(nil)
	}
	return exitWord(w.cmd.ProcessState)
}

func exitWord(ps *os.ProcessState) string {
	if ps == nil {
		return "unknown status"
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return "killed by " + ws.Signal().String()
	}
	return "status " + strconv.Itoa(ps.ExitCode())
}
