package export

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"

	"sync/atomic"
	"time"
)

// Defaults of Options.
const (
	DefaultQueue    = 4096
	DefaultBatch    = 256
	DefaultAttempts = 6
	// The backoff between attempts doubles from BackoffMin to BackoffMax,
	// each wait drawn between half and all of it (jitter).
	BackoffMin = 200 * time.Millisecond
	BackoffMax = 10 * time.Second
)

// Config is where records go: any of the three, none for no export.
type Config struct {
	OTLP   *OTLP
	Syslog *SyslogTarget
	File   string
}

// Enabled reports whether anything is exported.
func (c Config) Enabled() bool { return c.OTLP != nil || c.Syslog != nil || c.File != "" }

// Options tunes an Exporter.
type Options struct {
	// Version is the hermes-hooks version (service.version).
	Version string
	// Queue bounds the records waiting per sink (DefaultQueue); Batch
	// bounds one send (DefaultBatch); Attempts the tries of one batch
	// (DefaultAttempts) before it is dropped and counted.
	Queue, Batch, Attempts int
	// Warn receives the first failure per sink (later ones are counted).
	Warn func(string)
	// Linger keeps a spool flush waiting for more records until none came
	// for this long (Spool.Flush).
	Linger time.Duration
	// sleep waits between attempts (tests replace it).
	sleep func(ctx context.Context, d time.Duration) error
}

// Exporter sends journal lines to its sinks, off the caller's path: Enqueue
// never blocks.
type Exporter struct {
	workers []*worker
	cancel  context.CancelFunc
	// mu: Enqueue holds it shared, Close exclusively while it marks the
	// Exporter closed and closes the queues, so no line is sent on a
	// closed queue (a reload replaces an Exporter while records arrive).
	mu     sync.RWMutex
	closed bool
}

type worker struct {
	s       sink
	q       chan item
	opts    *Options
	dropped atomic.Int64
	sent    atomic.Int64
	warned  atomic.Bool
	done    chan struct{}
}

// withDefaults is o with every unset bound at its default.
func (o Options) withDefaults() Options {
	if o.Queue <= 0 {
		o.Queue = DefaultQueue
	}
	if o.Batch <= 0 {
		o.Batch = DefaultBatch
	}
	if o.Attempts <= 0 {
		o.Attempts = DefaultAttempts
	}
	if o.sleep == nil {
		o.sleep = sleepCtx
	}
	return o
}

// New starts an Exporter for cfg; nil when cfg exports nothing.
func New(cfg Config, opts Options) *Exporter {
	if !cfg.Enabled() {
		return nil
	}
	opts = opts.withDefaults()
	ctx, cancel := context.WithCancel(context.Background())
	e := &Exporter{cancel: cancel}
	for _, s := range sinksFor(cfg, opts.Version) {
		w := &worker{s: s, q: make(chan item, opts.Queue), opts: &opts, done: make(chan struct{})}
		e.workers = append(e.workers, w)
		go w.run(ctx)
	}
	return e
}

func sinksFor(cfg Config, version string) []sink {
	host, _ := os.Hostname()
	var out []sink
	if cfg.OTLP != nil {
		out = append(out, newOTLPSink(*cfg.OTLP, resource{service: "hermes-hooks", version: version, host: host}))
	}
	if cfg.Syslog != nil {
		out = append(out, &syslogSink{target: *cfg.Syslog, host: host})
	}
	if cfg.File != "" {
		out = append(out, &fileSink{path: cfg.File})
	}
	return out
}

// Enqueue hands one journal line to every sink's queue, never waiting: a
// full queue drops the line for that sink and counts it.
func (e *Exporter) Enqueue(line []byte) {
	if e == nil {
		return
	}
	e.mu.RLock()
	defer e.mu.RUnlock()
	if e.closed {
		for _, w := range e.workers {
			w.dropped.Add(1)
		}
		return
	}
	// One copy, shared read-only by the workers; each reads the record
	// itself, off the caller's path.
	it := item{line: append([]byte(nil), line...)}
	for _, w := range e.workers {
		select {
		case w.q <- it:
		default:
			w.dropped.Add(1)
			w.warn(fmt.Errorf("%d records waiting", cap(w.q)))
		}
	}
}

// Dropped is the records dropped so far per sink (queue full, or every
// attempt failed).
func (e *Exporter) Dropped() map[string]int64 {
	out := map[string]int64{}
	if e == nil {
		return out
	}
	for _, w := range e.workers {
		out[w.s.name()] += w.dropped.Load()
	}
	return out
}

// Sent is the records delivered so far per sink.
func (e *Exporter) Sent() map[string]int64 {
	out := map[string]int64{}
	if e == nil {
		return out
	}
	for _, w := range e.workers {
		out[w.s.name()] += w.sent.Load()
	}
	return out
}

// Close sends what is queued, waiting at most wait, then stops; what is
// still queued is counted as dropped.
func (e *Exporter) Close(wait time.Duration) {
	if e == nil {
		return
	}
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return
	}
	e.closed = true
	for _, w := range e.workers {
		close(w.q)
	}
	e.mu.Unlock()
	t := time.NewTimer(wait)
	defer t.Stop()
	for _, w := range e.workers {
		select {
		case <-w.done:
		case <-t.C:
			e.cancel() // the workers stop retrying and count the rest
			<-w.done
		}
	}
	e.cancel()
	for _, w := range e.workers {
		w.s.close()
	}
}

func (w *worker) run(ctx context.Context) {
	defer close(w.done)
	batch := make([]item, 0, w.opts.Batch)
	for {
		it, ok := <-w.q
		if !ok {
			return
		}
		batch = append(batch[:0], newItem(it.line))
	more:
		for len(batch) < w.opts.Batch {
			select {
			case it, ok := <-w.q:
				if !ok {
					break more
				}
				batch = append(batch, newItem(it.line))
			default:
				break more
			}
		}
		w.deliver(ctx, batch)
		if ctx.Err() != nil {
			for range w.q { // closing: what is left is lost
				w.dropped.Add(1)
			}
			return
		}
	}
}

// deliver sends one batch, retrying with backoff; a batch that every
// attempt failed to send is dropped and counted.
func (w *worker) deliver(ctx context.Context, batch []item) {
	err := deliver(ctx, w.s, batch, w.opts)
	if err == nil {
		w.sent.Add(int64(len(batch)))
		return
	}
	w.dropped.Add(int64(len(batch)))
	w.warn(err)
}

func deliver(ctx context.Context, s sink, batch []item, opts *Options) error {
	var err error
	for attempt := 0; attempt < opts.Attempts; attempt++ {
		if attempt > 0 {
			if serr := opts.sleep(ctx, Backoff(attempt)); serr != nil {
				break
			}
		}
		if err = s.send(ctx, batch); err == nil {
			return nil
		}
		if errors.As(err, new(permanent)) {
			break
		}
	}
	return err
}

func (w *worker) warn(err error) {
	if w.warned.CompareAndSwap(false, true) && w.opts.Warn != nil {
		w.opts.Warn("export to " + w.s.name() + ": " + err.Error() +
			" (decisions and the journal are unaffected; dropped records are counted in hermes_hooks_export_dropped_total)")
	}
}

// Backoff is the wait before attempt n (1, 2, …): BackoffMin doubled n-1
// times, at most BackoffMax, less a random part of up to half (so that
// many senders do not retry in step).
func Backoff(n int) time.Duration {
	d := BackoffMin
	for i := 1; i < n && d < BackoffMax; i++ {
		d *= 2
	}
	d = min(d, BackoffMax)
	return d/2 + rand.N(d/2+1)
}

func sleepCtx(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
