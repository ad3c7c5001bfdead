//go:build unix

package hookproc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
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

// PoolConfig says how a Pool keeps its workers.
type PoolConfig struct {
	// Size is the most processes kept, each with one request in flight
	// (<= 0: 1).
	Size int
	// Idle is how long an idle worker is kept (<= 0: DefaultIdle).
	Idle time.Duration
	// GaveUp, when set, hears once, with the reason, that the pool was
	// given up after its crash loop.
	GaveUp func(failed string)
}

// Pool keeps up to Size worker processes of one command alive between
// requests: one request line in, one reply line out, one request in flight
// per process. A worker that times out, is cancelled, dies, breaks the
// protocol or replies out of turn is killed with its process group and its
// escaped descendants, and the next request starts a fresh one after a
// backoff that doubles with each recent crash; 5 crashes within a minute
// (crashLimit, crashWindow) give the pool up: every request fails from then
// on, until the caller replaces the pool. A request that never reached a live worker is
// retried once on a fresh one. Idle workers stop after Idle.
type Pool struct {
	slots    chan struct{}
	idle     time.Duration
	onGaveUp func(string)

	mu      sync.Mutex
	free    []*worker
	live    int
	crashes []time.Time
	failed  string
	closed  bool
}

// NewPool returns an empty pool: workers start on demand.
func NewPool(c PoolConfig) *Pool {
	if c.Size <= 0 {
		c.Size = 1
	}
	if c.Idle <= 0 {
		c.Idle = DefaultIdle
	}
	if c.GaveUp == nil {
		c.GaveUp = func(string) {}
	}
	return &Pool{slots: make(chan struct{}, c.Size), idle: c.Idle, onGaveUp: c.GaveUp}
}

// Status is how many worker processes the pool has, and why it was given up
// ("" while it was not).
func (p *Pool) Status() (live int, failed string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.live, p.failed
}

// Request sends line (one request, newline-terminated) to one of the
// pool's workers, started from s when none is free, and reads its reply
// line, which decode turns into the request's result — or into the reason
// the worker is broken (bad != ""): the worker is then killed, the crash
// counted, and the request fails. s.Timeout bounds the whole request,
// the wait for a free worker included; s.Stdin is not used.
func (p *Pool) Request(ctx context.Context, s Spec, line []byte, decode func(reply []byte) (res Result, bad string)) Result {
	start := time.Now()
	res := p.request(ctx, s, line, decode)
	res.Elapsed = time.Since(start)
	return res
}

// request sends line to a worker and reads its reply. A
// request that never reached a live worker — it had died while idle (an
// OOM kill, a kill -9), or broke the protocol while idle, or was gone when
// the line was written — is retried once on a fresh one: nothing saw it,
// and failing it would skip a guard for a crash that happened before it.
func (p *Pool) request(ctx context.Context, spec Spec, line []byte, decode func([]byte) (Result, string)) Result {
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
			return Result{SpawnError: err.Error()}
		}
		res, unsent := p.exchange(ctx, tctx, w, line, decode)
		if !unsent || retried {
			return res
		}
	}
}

// exchange is one request on one worker. unsent: the request never reached
// it (the worker is gone, and the result says why).
func (p *Pool) exchange(ctx, tctx context.Context, w *worker, line []byte, decode func([]byte) (Result, string)) (res Result, unsent bool) {
	if w.rd.Buffered() > 0 || readable(w.stdout) || isClosed(w.exited) {
		// A line nobody asked for (or EOF while idle): its replies can no
		// longer be matched to requests.
		why := "printed a line nobody asked for"
		if isClosed(w.exited) {
			why = "exited while idle"
		}
		p.crashed(w, why)
		return Result{SpawnError: "worker " + why}, true
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
	// The worker's exit ends the wait for its reply: a descendant that
	// holds its stdout open would otherwise keep the read waiting for the
	// whole timeout. What it wrote before it exited is in the pipe, read
	// within the grace (never past the request's own deadline).
	var exitedFirst atomic.Bool
	stopExit := context.AfterFunc(w.exitCtx, func() {
		exitedFirst.Store(true)
		_ = w.stdout.SetReadDeadline(graceEnd(time.Now(), deadline))
	})
	defer stopExit()
	if err := w.send(line); err != nil && !errors.Is(err, os.ErrDeadlineExceeded) {
		// EPIPE: nobody reads its stdin any more, so the line reached
		// nobody.
		p.kill(w)
		why := "exited (" + w.exitWord() + ") before the request reached it"
		p.countCrash(why)
		return Result{SpawnError: "worker " + why, Stderr: w.takeStderr()}, true
	} else if err != nil {
		p.discard(w)
		return p.ended(ctx, w), false
	}
	reply, err := w.receive(nil)
	for errors.Is(err, os.ErrDeadlineExceeded) && exitedFirst.Load() && ctx.Err() == nil && tctx.Err() == nil &&
		(deadline.IsZero() || time.Now().Before(deadline)) {
		if w.rd.Buffered() == 0 && !readable(w.stdout) {
			err = io.EOF // it exited: no reply will come, whoever holds the pipe
			break
		}
		// What it wrote is waiting still (this goroutine was slow to
		// read it): read on, from where the read stopped.
		_ = w.stdout.SetReadDeadline(graceEnd(time.Now(), deadline))
		reply, err = w.receive(reply)
	}
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		p.discard(w)
		return p.ended(ctx, w), false
	case errors.Is(err, errLongReply):
		p.crashed(w, err.Error())
		// What was kept goes with it, marked cut, as a one-shot hook's
		// stdout past the cap: a reader can tell a reply cut short.
		return Result{SpawnError: "worker " + err.Error(), Stdout: reply, StdoutTruncated: true, Stderr: w.takeStderr()}, false
	case err != nil:
		// EOF on its stdout: it is gone.
		p.kill(w)
		why := "exited (" + w.exitWord() + ") without replying"
		p.countCrash(why)
		return Result{SpawnError: "worker " + why, Stderr: w.takeStderr()}, false
	}
	res, bad := decode(reply)
	res.Stderr = append(res.Stderr, w.takeStderr()...)
	if bad != "" {
		// Another request's reply, or a line that is none: what it says
		// cannot be taken for this request's answer.
		p.crashed(w, bad)
		return Result{SpawnError: "worker " + bad, Stderr: res.Stderr}, false
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
func (p *Pool) ended(ctx context.Context, w *worker) Result {
	res := Result{TimedOut: ctx.Err() == nil, Cancelled: ctx.Err() != nil}
	if w != nil {
		res.Stderr = w.takeStderr()
	}
	return res
}

// get takes a free worker or starts one, after the backoff a recent crash
// asks for.
func (p *Pool) get(ctx context.Context, spec Spec) (*worker, error) {
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
func (p *Pool) backoff() time.Duration {
	n := len(p.crashes)
	if n == 0 {
		return 0
	}
	d := 50 * time.Millisecond << (n - 1)
	return min(d, maxBackoff)
}

func (p *Pool) gone() {
	p.mu.Lock()
	p.live--
	p.mu.Unlock()
}

// put returns a worker after a good reply; it stops once idle too long.
func (p *Pool) put(w *worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		p.live--
		go w.stop()
		return
	}
	p.crashes = p.crashes[:0] // it works again
	p.free = append(p.free, w)
	if w.idle == nil {
		w.idle = time.AfterFunc(p.idle, func() { p.retire(w) })
	} else {
		w.idle.Reset(p.idle)
	}
}

// retire stops an idle worker.
func (p *Pool) retire(w *worker) {
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
func (p *Pool) discard(w *worker) { p.kill(w) }

// crashed kills a broken worker and counts the crash; too many within the
// window mark the pool failed.
func (p *Pool) crashed(w *worker, why string) {
	p.kill(w)
	p.countCrash(why)
}

// kill ends a worker that is no longer of use.
func (p *Pool) kill(w *worker) {
	w.kill()
	p.gone()
}

// countCrash counts a crash; too many within the window mark the pool
// failed.
func (p *Pool) countCrash(why string) {
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
		p.onGaveUp(failed)
	}
}

// Close stops every worker of the pool and waits for them: EOF on a
// worker's stdin, then its process group and escaped descendants are
// killed if it has not exited within a short grace. A request in flight
// finishes first, on its own worker, which is stopped after it; requests
// from then on fail.
func (p *Pool) Close() {
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

// graceEnd is when the read of an exited worker's reply gives up: a grace
// from now for what it wrote to be read, never past the request's own
// deadline (zero: none).
func graceEnd(now, deadline time.Time) time.Time {
	if end := now.Add(stopGrace); deadline.IsZero() || end.Before(deadline) {
		return end
	}
	return deadline
}
