//go:build unix

package dispatcher

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// workerPool is one entry's workers: the processes are hookproc's; what is
// here is which entry they serve and which files they were started from.
type workerPool struct {
	*hookproc.Pool
	key string // the pinned files' sums the workers were started from
	// files and sums are what the gate pinned when the workers started
	// (none without a consent gate): StopChangedWorkers compares them
	// with the files as they are now.
	files, sums []string
}

// keepsWorkers: this system keeps worker processes alive between events.
const keepsWorkers = true

// workers is the dispatcher's pools, keyed by entry.
type workers struct {
	mu    sync.Mutex
	pools map[*hookconfig.Entry]*workerPool
}

// Workers reports every worker entry that has run in this dispatcher.
func (d *Dispatcher) Workers() []WorkerStatus {
	d.workers.mu.Lock()
	defer d.workers.mu.Unlock()
	var out []WorkerStatus
	for e, p := range d.workers.pools {
		live, failed := p.Status()
		out = append(out, WorkerStatus{Event: e.DeclaredAs, Command: e.Command, Live: live, Failed: failed})
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
		go func() { defer wg.Done(); p.Close() }()
	}
	wg.Wait()
}

// stopWorkers stops e's workers: the gate no longer runs it.
func (d *Dispatcher) stopWorkers(e *hookconfig.Entry) {
	d.workers.mu.Lock()
	p := d.workers.pools[e]
	delete(d.workers.pools, e)
	d.workers.mu.Unlock()
	if p != nil {
		go p.Close()
	}
}

// pool returns e's pool for workers started from files with these sums
// (as the gate pinned them), replacing (and stopping) one started from
// other content.
func (d *Dispatcher) pool(e *hookconfig.Entry, files, sums []string) (*workerPool, error) {
	key := strings.Join(sums, " ")
	d.workers.mu.Lock()
	defer d.workers.mu.Unlock()
	p := d.workers.pools[e]
	if p != nil && p.key == key {
		return p, nil
	}
	if p != nil {
		go p.Close() // its files changed since it started
	}
	gaveUp := func(failed string) { d.warn("worker " + e.Command + " (" + e.DeclaredAs + ") " + failed) }
	var ws hookconfig.WorkerSpec
	if w := e.Worker(); w != nil {
		ws = *w
	}
	p = &workerPool{Pool: hookproc.NewPool(hookproc.PoolConfig{Size: ws.Workers, Idle: ws.Idle, GaveUp: gaveUp}), key: key}
	if len(sums) == len(files) {
		p.files, p.sums = files, sums
	}
	if d.workers.pools == nil {
		d.workers.pools = map[*hookconfig.Entry]*workerPool{}
	}
	d.workers.pools[e] = p
	return p, nil
}

// runWorker sends one request to one of e's workers.
func (d *Dispatcher) runWorker(ctx context.Context, h Invocation, spec hookproc.Spec) hookproc.Result {
	start := time.Now()
	p, err := d.pool(h.Entry, h.target.Files, h.pins.Sums())
	if err != nil {
		return hookproc.Result{SpawnError: "worker: " + err.Error()}
	}
	id := newRequestID()
	line, ok := hookproc.WithRequestID(spec.Stdin, id, h.Entry.Dialect == protocol.Hermes)
	if !ok {
		return hookproc.Result{SpawnError: "worker: the payload is not a JSON object"}
	}
	res := p.Request(ctx, spec, line, func(reply []byte) (hookproc.Result, string) { return decodeWorkerReply(reply, id) })
	res.Elapsed = time.Since(start)
	return res
}
