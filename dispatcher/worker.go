//go:build unix

package dispatcher

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/hermes-hooks/hermes-hooks/protocol"
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
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan []byte // stdout lines; closed at EOF
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
		key = fmt.Sprint(h.pins.Sums())
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
	select {
	case _, ok := <-w.lines:
		// A line nobody asked for (or EOF while idle): its replies can no
		// longer be matched to requests.
		why := "printed a line nobody asked for"
		if !ok {
			why = "exited while idle"
		}
		p.crashed(w, why)
		return runResult{SpawnError: "worker " + why}
	default:
	}
	w.stderr.take() // what it wrote while idle belongs to no request
	line := append(bytes.TrimRight(spec.Stdin, "\n"), '\n')
	if _, err := w.stdin.Write(line); err != nil {
		p.crashed(w, "its stdin is closed")
		return runResult{SpawnError: "worker " + p.e.Command + " exited before reading the event"}
	}
	select {
	case reply, ok := <-w.lines:
		if !ok {
			<-w.exited
			why := "exited (" + exitWord(w.cmd.ProcessState) + ") without replying"
			p.crashed(w, why)
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
	case <-tctx.Done():
		p.discard(w)
		return p.ended(ctx, w)
	}
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
		w.idle.Stop()
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
	w.idle = time.AfterFunc(idle, func() { p.retire(w) })
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
func (p *workerPool) discard(w *worker) {
	w.kill()
	p.gone()
}

// crashed kills a broken worker and counts the crash; too many within the
// window mark the pool failed.
func (p *workerPool) crashed(w *worker, why string) {
	w.kill()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.live--
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
		w.idle.Stop()
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
	w := &worker{lines: make(chan []byte, 1), exited: make(chan struct{})}
	newCmd := func(path string, argv []string) *exec.Cmd {
		cmd := exec.Command(path)
		cmd.Args = argv
		cmd.Env = append(s.Env[:len(s.Env):len(s.Env)], WorkerEnv+"=1")
		cmd.Dir = s.Dir
		cmd.SysProcAttr = workerProcAttr()
		if s.Script != nil {
			cmd.ExtraFiles = []*os.File{s.Script}
		}
		// A descendant holding stdout must not keep Wait (and so kill and
		// Close) waiting after the worker is gone.
		cmd.WaitDelay = drainGrace
		return cmd
	}
	errR, errW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer errW.Close() // the worker has its copy
	cmd := newCmd(s.Path, s.Argv)
	cmd.Stderr = errW
	stdin, stdout, err := pipes(cmd)
	if err == nil {
		err = cmd.Start()
		if errors.Is(err, syscall.ENOEXEC) && s.ShellFallback {
			cmd = newCmd("/bin/sh", append([]string{"/bin/sh", s.Path}, s.Argv[1:]...))
			cmd.Stderr = errW
			if stdin, stdout, err = pipes(cmd); err == nil {
				err = cmd.Start()
			}
		}
	}
	if err != nil {
		errR.Close()
		return nil, err
	}
	if w.stderr, err = newStderrPump(errR, s.Cap); err != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		errR.Close()
		return nil, err
	}
	w.cmd, w.stdin = cmd, stdin
	go func() {
		// One reply per line; a line longer than the cap is read whole
		// and refused as a broken reply rather than split.
		r := bufio.NewReaderSize(stdout, 64<<10)
		for {
			line, err := r.ReadBytes('\n')
			if len(bytes.TrimSpace(line)) > 0 {
				w.lines <- line
			}
			if err != nil {
				break
			}
		}
		close(w.lines)
	}()
	go func() {
		_ = cmd.Wait()
		close(w.exited)
	}()
	return w, nil
}

func (w *worker) takeStderr() []byte { return w.stderr.take() }

func pipes(cmd *exec.Cmd) (io.WriteCloser, io.ReadCloser, error) {
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		in.Close()
		return nil, nil, err
	}
	return in, out, nil
}

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
