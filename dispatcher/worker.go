//go:build unix

package dispatcher

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hermes-hooks/hermes-hooks/protocol"
	"golang.org/x/sys/unix"
)

// crashLimit crashes within crashWindow mark a pool failed.
const (
	crashLimit  = 5
	crashWindow = time.Minute
	maxBackoff  = 2 * time.Second
	// stopGrace is how long a worker gets to exit after its stdin closes
	// before its process group is killed.
	stopGrace = 500 * time.Millisecond
)

// workerPool is one entry's workers.
type workerPool struct {
	e     *Entry
	key   string // the pinned files' sums the workers were started from
	slots chan struct{}

	mu      sync.Mutex
	free    []*worker
	live    int
	crashes []time.Time
	failed  string
	closed  bool
}

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
	idle   *time.Timer
}

// workers is the dispatcher's pools, keyed by entry.
type workers struct {
	mu    sync.Mutex
	pools map[*Entry]*workerPool
}

// Workers reports every worker entry that has run in this dispatcher.
func (d *Dispatcher) Workers() []WorkerStatus {
	d.workers.mu.Lock()
	defer d.workers.mu.Unlock()
	var out []WorkerStatus
	for e, p := range d.workers.pools {
		p.mu.Lock()
		out = append(out, WorkerStatus{Event: e.DeclaredAs, Command: e.Command, Live: p.live, Failed: p.failed})
		p.mu.Unlock()
	}
	return out
}

// StopWorkers stops every worker process (and its process group) and
// waits for them; a request in flight finishes first, on its own worker.
// Workers start again on demand: serve calls it on the dispatcher a reload
// replaced. A dispatcher without worker entries has nothing to stop.
func (d *Dispatcher) StopWorkers() {
	d.workers.mu.Lock()
	pools := d.workers.pools
	d.workers.pools = nil
	d.workers.mu.Unlock()
	var wg sync.WaitGroup
	for _, p := range pools {
		wg.Add(1)
		go func() { defer wg.Done(); p.close() }()
	}
	wg.Wait()
}

// stopWorkers stops e's workers: the gate no longer runs it.
func (d *Dispatcher) stopWorkers(e *Entry) {
	d.workers.mu.Lock()
	p := d.workers.pools[e]
	delete(d.workers.pools, e)
	d.workers.mu.Unlock()
	if p != nil {
		go p.close()
	}
}

// pool returns e's pool for workers started from key, replacing (and
// stopping) one started from other files.
func (d *Dispatcher) pool(e *Entry, key string) (*workerPool, error) {
	d.workers.mu.Lock()
	defer d.workers.mu.Unlock()
	p := d.workers.pools[e]
	if p != nil && p.key == key {
		return p, nil
	}
	if p != nil {
		go p.close() // its files changed since it started
	}
	n := e.Workers
	if n <= 0 {
		n = 1
	}
	p = &workerPool{e: e, key: key, slots: make(chan struct{}, n)}
	if d.workers.pools == nil {
		d.workers.pools = map[*Entry]*workerPool{}
	}
	d.workers.pools[e] = p
	return p, nil
}

// runWorker sends one request to one of e's workers.
func (d *Dispatcher) runWorker(ctx context.Context, h Hook, spec runSpec) runResult {
	start := time.Now()
	var key string
	if h.pins != nil {
		key = strings.Join(h.pins.Sums(), " ")
	}
	p, err := d.pool(h.Entry, key)
	if err != nil {
		return runResult{SpawnError: "worker: " + err.Error()}
	}
	res := p.request(ctx, spec)
	res.Elapsed = time.Since(start)
	return res
}

func (p *workerPool) request(ctx context.Context, spec runSpec) runResult {
	tctx, cancel := context.WithTimeout(ctx, spec.Timeout)
	defer cancel()
	select {
	case p.slots <- struct{}{}:
	case <-tctx.Done():
		return p.ended(ctx, nil)
	}
	defer func() { <-p.slots }()

	w, err := p.get(tctx, spec)
	if err != nil {
		if tctx.Err() != nil {
			return p.ended(ctx, nil)
		}
		return runResult{SpawnError: err.Error()}
	}
	if w.rd.Buffered() > 0 || readable(w.stdout) {
		// A line nobody asked for (or EOF while idle): its replies can no
		// longer be matched to requests.
		why := "printed a line nobody asked for"
		select {
		case <-w.exited:
			why = "exited while idle"
		default:
		}
		p.crashed(w, why)
		return runResult{SpawnError: "worker " + why}
	}
	w.stderr.take() // what it wrote while idle belongs to no request
	deadline, _ := tctx.Deadline()
	_ = w.stdin.SetWriteDeadline(deadline)
	_ = w.stdout.SetReadDeadline(deadline)
	// The caller giving up interrupts the write or the read at once.
	stop := context.AfterFunc(ctx, func() {
		_ = w.stdin.SetWriteDeadline(time.Now())
		_ = w.stdout.SetReadDeadline(time.Now())
	})
	reply, err := w.exchange(spec.Stdin)
	stop()
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		p.discard(w)
		return p.ended(ctx, w)
	case errors.Is(err, errLongReply):
		p.crashed(w, err.Error())
		return runResult{SpawnError: "worker " + err.Error(), Stderr: w.takeStderr()}
	case err != nil:
		// EOF on its stdout or a closed stdin: it is gone.
		p.kill(w)
		why := "exited (" + exitWord(w.cmd.ProcessState) + ") without replying"
		p.countCrash(why)
		return runResult{SpawnError: "worker " + why, Stderr: w.takeStderr()}
	}
	res, bad := decodeWorkerReply(reply)
	res.Stderr = append(res.Stderr, w.takeStderr()...)
	if bad != "" {
		p.crashed(w, bad)
		return runResult{SpawnError: "worker " + bad, Stderr: res.Stderr}
	}
	p.put(w)
	return res
}

// errLongReply: a reply line past the output cap.
var errLongReply = errors.New("printed a reply longer than the output cap")

// exchange writes one payload line and reads one reply line (blank lines
// skipped), within the deadlines set on the pipes.
func (w *worker) exchange(payload []byte) ([]byte, error) {
	line := append(bytes.TrimRight(payload, "\n"), '\n')
	if _, err := w.stdin.Write(line); err != nil {
		return nil, err
	}
	for {
		var reply []byte
		for {
			chunk, err := w.rd.ReadSlice('\n')
			if len(reply)+len(chunk) > w.cap {
				return nil, errLongReply
			}
			reply = append(reply, chunk...)
			if err == bufio.ErrBufferFull {
				continue
			}
			if err != nil {
				return nil, err
			}
			break
		}
		if len(bytes.TrimSpace(reply)) > 0 {
			return reply, nil
		}
	}
}

// readable reports whether f has data (or EOF) waiting, without reading.
// (Through SyscallConn: f.Fd() would switch the pipe to blocking mode, and
// its read deadlines would no longer apply.)
func readable(f *os.File) bool {
	rc, err := f.SyscallConn()
	if err != nil {
		return false
	}
	ready := false
	_ = rc.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 0)
		ready = err == nil && n > 0
	})
	return ready
}

// ended is the result of a request cut short by its timeout or its caller.
func (p *workerPool) ended(ctx context.Context, w *worker) runResult {
	res := runResult{TimedOut: ctx.Err() == nil, Cancelled: ctx.Err() != nil}
	if w != nil {
		res.Stderr = w.takeStderr()
	}
	return res
}

// decodeWorkerReply reads one reply line: a JSON object is what a one-shot
// hook would have printed with exit 0, unless it is the envelope of an exit
// status ({"exit": N, …}). Anything else is a broken worker.
func decodeWorkerReply(line []byte) (runResult, string) {
	v, err := protocol.DecodeJSON(line)
	obj, ok := v.(map[string]any)
	if err != nil || !ok {
		return runResult{}, "printed a line that is not a JSON object"
	}
	code, isEnv := obj["exit"]
	if !isEnv {
		return runResult{Exited: true, Stdout: line}, ""
	}
	n, ok := jsonInt(code)
	if !ok {
		return runResult{}, `sent an "exit" that is not an integer`
	}
	res := runResult{Exited: true, ExitCode: n}
	if s, ok := obj["stdout"].(string); ok {
		res.Stdout = []byte(s)
	}
	if s, ok := obj["stderr"].(string); ok {
		res.Stderr = []byte(s)
	}
	return res, ""
}

func jsonInt(v any) (int, bool) {
	switch n := v.(type) {
	case float64:
		if n == float64(int(n)) {
			return int(n), true
		}
	case interface{ String() string }: // json.Number
		i, err := strconv.Atoi(n.String())
		return i, err == nil
	}
	return 0, false
}

// get takes a free worker or starts one, after the backoff a recent crash
// asks for.
func (p *workerPool) get(ctx context.Context, spec runSpec) (*worker, error) {
	p.mu.Lock()
	if p.failed != "" {
		p.mu.Unlock()
		return nil, errors.New("worker " + p.failed)
	}
	if p.closed {
		p.mu.Unlock()
		return nil, errors.New("worker stopped")
	}
	if n := len(p.free); n > 0 {
		w := p.free[n-1]
		p.free = p.free[:n-1]
		p.mu.Unlock()
		if w.idle != nil {
			w.idle.Stop()
		}
		return w, nil
	}
	wait := p.backoff()
	p.live++
	p.mu.Unlock()
	if wait > 0 {
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			p.gone()
			return nil, ctx.Err()
		}
	}
	w, err := startWorker(spec)
	if err != nil {
		p.gone()
		return nil, errors.New(spawnErrorText(err))
	}
	return w, nil
}

// backoff is the wait before the next start: doubling with each recent
// crash. Called with p.mu held.
func (p *workerPool) backoff() time.Duration {
	n := len(p.crashes)
	if n == 0 {
		return 0
	}
	d := 50 * time.Millisecond << (n - 1)
	return min(d, maxBackoff)
}

func (p *workerPool) gone() {
	p.mu.Lock()
	p.live--
	p.mu.Unlock()
}

// put returns a worker after a good reply; it stops once idle too long.
func (p *workerPool) put(w *worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		p.live--
		go w.stop()
		return
	}
	p.crashes = p.crashes[:0] // it works again
	p.free = append(p.free, w)
	idle := p.e.WorkerIdle
	if idle <= 0 {
		idle = DefaultWorkerIdle
	}
	if w.idle == nil {
		w.idle = time.AfterFunc(idle, func() { p.retire(w) })
	} else {
		w.idle.Reset(idle)
	}
}

// retire stops an idle worker.
func (p *workerPool) retire(w *worker) {
	p.mu.Lock()
	for i, f := range p.free {
		if f == w {
			p.free = append(p.free[:i], p.free[i+1:]...)
			p.live--
			p.mu.Unlock()
			w.stop()
			return
		}
	}
	p.mu.Unlock()
}

// discard kills a worker whose request timed out or was cancelled.
func (p *workerPool) discard(w *worker) { p.kill(w) }

// crashed kills a broken worker and counts the crash; too many within the
// window mark the pool failed.
func (p *workerPool) crashed(w *worker, why string) {
	p.kill(w)
	p.countCrash(why)
}

// kill ends a worker that is no longer of use.
func (p *workerPool) kill(w *worker) {
	w.kill()
	p.gone()
}

// countCrash counts a crash; too many within the window mark the pool
// failed.
func (p *workerPool) countCrash(why string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	kept := p.crashes[:0]
	for _, t := range p.crashes {
		if now.Sub(t) < crashWindow {
			kept = append(kept, t)
		}
	}
	p.crashes = append(kept, now)
	if len(p.crashes) >= crashLimit {
		p.failed = fmt.Sprintf("failed: it crashed %d times within %s (last: %s); it is not restarted until the dispatcher reloads", len(p.crashes), crashWindow, why)
	}
}

// close stops every worker of the pool.
func (p *workerPool) close() {
	p.mu.Lock()
	p.closed = true
	free := p.free
	p.free = nil
	p.live -= len(free)
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, w := range free {
		if w.idle != nil {
			w.idle.Stop()
		}
		wg.Add(1)
		go func() { defer wg.Done(); w.stop() }()
	}
	wg.Wait()
}

// startWorker starts the process of spec as a worker.
func startWorker(s runSpec) (*worker, error) {
	if s.Verify != nil {
		if err := s.Verify(); err != nil {
			return nil, err
		}
	}
	if s.Cap <= 0 {
		s.Cap = DefaultOutputCap
	}
	w := &worker{cap: s.Cap, exited: make(chan struct{})}
	newCmd := func(path string, argv []string) *exec.Cmd {
		cmd := exec.Command(path)
		cmd.Args = argv
		cmd.Env = append(s.Env[:len(s.Env):len(s.Env)], WorkerEnv+"=1")
		cmd.Dir = s.Dir
		cmd.SysProcAttr = workerProcAttr()
		if s.Script != nil {
			cmd.ExtraFiles = []*os.File{s.Script}
		}
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
	cmd, err := start(s.Path, s.Argv)
	if errors.Is(err, syscall.ENOEXEC) && s.ShellFallback {
		cmd, err = start("/bin/sh", append([]string{"/bin/sh", s.Path}, s.Argv[1:]...))
	}
	if err == nil {
		w.stderr, err = newStderrPump(parent[2], s.Cap)
		if err != nil {
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			_ = cmd.Wait()
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
	go func() {
		_ = cmd.Wait()
		close(w.exited)
	}()
	return w, nil
}

func (w *worker) takeStderr() []byte { return w.stderr.take() }

// stop ends a worker: EOF on its stdin, then its process group is killed
// if it has not exited within stopGrace.
func (w *worker) stop() {
	w.stdin.Close()
	t := time.NewTimer(stopGrace)
	defer t.Stop()
	select {
	case <-w.exited:
		// Whatever it left in its group goes too.
		_ = syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
		w.stdout.Close()
		w.stderr.close()
	case <-t.C:
		w.kill()
	}
}

// kill ends a worker and its process group at once, and waits for it.
func (w *worker) kill() {
	_ = syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
	w.stdin.Close()
	<-w.exited
	w.stdout.Close()
	w.stderr.close()
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
