//go:build unix

package dispatcher

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
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
	// warn hears once that the pool was given up (Options.Warn).
	warn func(string)
	// files and sums are what the gate pinned when the workers started
	// (none without a consent gate): StopChangedWorkers compares them
	// with the files as they are now.
	files, sums []string

	mu      sync.Mutex
	free    []*worker
	live    int
	crashes []time.Time
	failed  string
	closed  bool
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

// pool returns e's pool for workers started from files with these sums
// (as the gate pinned them), replacing (and stopping) one started from
// other content.
func (d *Dispatcher) pool(e *Entry, files, sums []string) (*workerPool, error) {
	key := strings.Join(sums, " ")
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
	p = &workerPool{e: e, key: key, slots: make(chan struct{}, n), warn: d.warn}
	if len(sums) == len(files) {
		p.files, p.sums = files, sums
	}
	if d.workers.pools == nil {
		d.workers.pools = map[*Entry]*workerPool{}
	}
	d.workers.pools[e] = p
	return p, nil
}

// runWorker sends one request to one of e's workers.
func (d *Dispatcher) runWorker(ctx context.Context, h Hook, spec runSpec) runResult {
	start := time.Now()
	p, err := d.pool(h.Entry, h.Target.Files, h.pins.Sums())
	if err != nil {
		return runResult{SpawnError: "worker: " + err.Error()}
	}
	id := requestSeq.Add(1)
	line, ok := withRequestID(spec.Stdin, id, h.Entry.Dialect == protocol.Hermes)
	if !ok {
		return runResult{SpawnError: "worker: the payload is not a JSON object"}
	}
	res := p.request(ctx, spec, line, id)
	res.Elapsed = time.Since(start)
	return res
}

// request sends line, request id's, to a worker and reads its reply. A
// request that never reached a live worker — it had died while idle (an
// OOM kill, a kill -9), or broke the protocol while idle, or was gone when
// the line was written — is retried once on a fresh one: nothing saw it,
// and failing it would skip a guard for a crash that happened before it.
func (p *workerPool) request(ctx context.Context, spec runSpec, line []byte, id uint64) runResult {
	tctx, cancel := context.WithTimeout(ctx, spec.Timeout)
	defer cancel()
	select {
	case p.slots <- struct{}{}:
	case <-tctx.Done():
		return p.ended(ctx, nil)
	}
	defer func() { <-p.slots }()

	for retried := false; ; retried = true {
		w, err := p.get(tctx, spec)
		if err != nil {
			if tctx.Err() != nil {
				return p.ended(ctx, nil)
			}
			return runResult{SpawnError: err.Error()}
		}
		res, unsent := p.exchange(ctx, tctx, w, line, id)
		if !unsent || retried {
			return res
		}
	}
}

// exchange is one request on one worker. unsent: the request never reached
// it (the worker is gone, and the result says why).
func (p *workerPool) exchange(ctx, tctx context.Context, w *worker, line []byte, id uint64) (res runResult, unsent bool) {
	if w.rd.Buffered() > 0 || readable(w.stdout) || isClosed(w.exited) {
		// A line nobody asked for (or EOF while idle): its replies can no
		// longer be matched to requests.
		why := "printed a line nobody asked for"
		if isClosed(w.exited) {
			why = "exited while idle"
		}
		p.crashed(w, why)
		return runResult{SpawnError: "worker " + why}, true
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
	defer stop()
	if err := w.send(line); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
		// EPIPE: nobody reads its stdin any more, so the line reached
		// nobody.
		p.kill(w)
		why := "exited (" + exitWord(w.cmd.ProcessState) + ") before the request reached it"
		p.countCrash(why)
		return runResult{SpawnError: "worker " + why, Stderr: w.takeStderr()}, true
	} else if err != nil {
		p.discard(w)
		return p.ended(ctx, w), false
	}
	reply, err := w.receive()
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		p.discard(w)
		return p.ended(ctx, w), false
	case errors.Is(err, errLongReply):
		p.crashed(w, err.Error())
		return runResult{SpawnError: "worker " + err.Error(), Stderr: w.takeStderr()}, false
	case err != nil:
		// EOF on its stdout: it is gone.
		p.kill(w)
		why := "exited (" + exitWord(w.cmd.ProcessState) + ") without replying"
		p.countCrash(why)
		return runResult{SpawnError: "worker " + why, Stderr: w.takeStderr()}, false
	}
	res, bad := decodeWorkerReply(reply, id)
	res.Stderr = append(res.Stderr, w.takeStderr()...)
	if bad != "" {
		// Another request's reply, or a line that is none: what it says
		// cannot be taken for this request's answer.
		p.crashed(w, bad)
		return runResult{SpawnError: "worker " + bad, Stderr: res.Stderr}, false
	}
	p.put(w)
	return res, false
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
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
	now := time.Now()
	kept := p.crashes[:0]
	for _, t := range p.crashes {
		if now.Sub(t) < crashWindow {
			kept = append(kept, t)
		}
	}
	p.crashes = append(kept, now)
	gaveUp := false
	if len(p.crashes) >= crashLimit {
		gaveUp = p.failed == ""
		p.failed = fmt.Sprintf("failed: it crashed %d times within %s (last: %s); it is not restarted until the dispatcher reloads", len(p.crashes), crashWindow, why)
	}
	failed := p.failed
	p.mu.Unlock()
	if gaveUp {
		// Once, as it happens: until a reload its hook fails every
		// firing, and the log should say why before anyone asks.
		p.warn("worker " + p.e.Command + " (" + p.e.DeclaredAs + ") " + failed)
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
