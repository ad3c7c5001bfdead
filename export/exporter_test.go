package export

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// hang bounds a wait that only a bug makes long.
const hang = time.Minute

// gateSink blocks every send until released, counting what it got.
type gateSink struct {
	release chan struct{}
	started chan struct{}
	once    sync.Once
	got     atomic.Int64
	fail    atomic.Int64 // sends left to fail
	perm    bool
}

func newGate() *gateSink {
	return &gateSink{release: make(chan struct{}), started: make(chan struct{})}
}

func (g *gateSink) name() string { return "gate" }
func (g *gateSink) close()       {}
func (g *gateSink) send(ctx context.Context, items []item) error {
	g.once.Do(func() { close(g.started) })
	select {
	case <-g.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	if g.fail.Add(-1) >= 0 {
		if g.perm {
			return permanent{errors.New("refused")}
		}
		return errors.New("unavailable")
	}
	g.got.Add(int64(len(items)))
	return nil
}

func newTestExporter(s sink, opts Options) *Exporter {
	if opts.sleep == nil {
		opts.sleep = func(context.Context, time.Duration) error { return nil }
	}
	if opts.Attempts == 0 {
		opts.Attempts = DefaultAttempts
	}
	ctx, cancel := context.WithCancel(context.Background())
	e := &Exporter{cancel: cancel}
	w := &worker{s: s, q: make(chan item, opts.Queue), opts: &opts, done: make(chan struct{})}
	e.workers = append(e.workers, w)
	go w.run(ctx)
	return e
}

// A sink that does not answer holds up no Enqueue: past the queue's bound,
// lines are dropped and counted, and the ones queued still arrive.
func TestQueueBoundDropsAndCounts(t *testing.T) {
	g := newGate()
	e := newTestExporter(g, Options{Queue: 4, Batch: 2})
	e.Enqueue([]byte(blockLine)) // taken by the worker, which then blocks
	select {
	case <-g.started:
	case <-time.After(hang):
		t.Fatal("the worker never sent")
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 10 {
			e.Enqueue([]byte(allowLine))
		}
	}()
	select {
	case <-done:
	case <-time.After(hang):
		t.Fatal("Enqueue blocked on a stuck sink")
	}
	if got := e.Dropped()["gate"]; got != 6 {
		t.Errorf("dropped %d, want 6 (10 lines, 4 queued)", got)
	}
	close(g.release)
	e.Close(hang)
	if got := g.got.Load(); got != 5 {
		t.Errorf("delivered %d, want 5", got)
	}
	if e.Sent()["gate"] != 5 {
		t.Errorf("sent %v", e.Sent())
	}
	e.Enqueue([]byte(allowLine)) // after Close: counted, never a panic
	if got := e.Dropped()["gate"]; got != 7 {
		t.Errorf("dropped after close %d, want 7", got)
	}
}

// A failing sink is retried with backoff; once it answers, the batch
// arrives once.
func TestRetriesWithBackoff(t *testing.T) {
	g := newGate()
	close(g.release)
	g.fail.Store(3)
	var waits []time.Duration
	var mu sync.Mutex
	e := newTestExporter(g, Options{Queue: 8, Batch: 8, sleep: func(_ context.Context, d time.Duration) error {
		mu.Lock()
		waits = append(waits, d)
		mu.Unlock()
		return nil
	}})
	e.Enqueue([]byte(blockLine))
	e.Close(hang)
	if g.got.Load() != 1 || e.Dropped()["gate"] != 0 {
		t.Fatalf("got %d, dropped %v", g.got.Load(), e.Dropped())
	}
	if len(waits) != 3 {
		t.Fatalf("waits %v, want 3", waits)
	}
	for i, d := range waits {
		hi := BackoffMin << i
		if d < hi/2 || d > hi {
			t.Errorf("wait %d = %v, want in [%v, %v]", i+1, d, hi/2, hi)
		}
	}
}

// A batch that every attempt failed, or the endpoint refused, is dropped
// and counted; a refusal is not retried.
func TestGiveUpCounts(t *testing.T) {
	for _, perm := range []bool{false, true} {
		t.Run(fmt.Sprint("permanent=", perm), func(t *testing.T) {
			g := newGate()
			close(g.release)
			g.fail.Store(100)
			g.perm = perm
			var tries atomic.Int64
			e := newTestExporter(g, Options{Queue: 8, Batch: 1, Attempts: 4, sleep: func(context.Context, time.Duration) error {
				tries.Add(1)
				return nil
			}})
			e.Enqueue([]byte(blockLine))
			e.Enqueue([]byte(allowLine))
			e.Close(hang)
			if d := e.Dropped()["gate"]; d != 2 {
				t.Errorf("dropped %d, want 2", d)
			}
			want := int64(6) // two batches of one, three waits each
			if perm {
				want = 0
			}
			if tries.Load() != want {
				t.Errorf("%d backoffs, want %d", tries.Load(), want)
			}
		})
	}
}

// Close gives up on a stuck sink within its bound and counts the rest.
func TestCloseIsBounded(t *testing.T) {
	g := newGate() // never released
	e := newTestExporter(g, Options{Queue: 8, Batch: 1})
	for range 3 {
		e.Enqueue([]byte(allowLine))
	}
	<-g.started
	done := make(chan struct{})
	go func() { e.Close(10 * time.Millisecond); close(done) }()
	select {
	case <-done:
	case <-time.After(hang):
		t.Fatal("Close waited on a stuck sink")
	}
	if d := e.Dropped()["gate"]; d != 3 {
		t.Errorf("dropped %d, want 3", d)
	}
}

func TestBackoffBounds(t *testing.T) {
	for n := 1; n < 20; n++ {
		hi := min(BackoffMin<<(n-1), BackoffMax)
		if n > 10 {
			hi = BackoffMax
		}
		for range 50 {
			if d := Backoff(n); d < hi/2 || d > hi {
				t.Fatalf("Backoff(%d) = %v, want in [%v, %v]", n, d, hi/2, hi)
			}
		}
	}
}

func TestAttributesWithoutADecider(t *testing.T) {
	it := newItem([]byte(allowLine))
	for _, a := range it.rec.attributes() {
		switch a.key {
		case "hermes_hooks.hook.command", "hermes_hooks.rule.id", "session.id", "hermes_hooks.hooks.command", "hermes_hooks.hooks.timed_out":
			t.Errorf("allowLine has no %s, got %+v", a.key, a)
		}
	}
}
