package journal

import (
	"errors"
	"sync"
	"sync/atomic"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// MaxPending bounds the records a Background writer keeps waiting for the
// journal's lock; past it, a record is lost and counted.
const MaxPending = 1024

// errQueueFull is the failure of a record that found MaxPending waiting.
var errQueueFull = errors.New("too many records waiting for the journal's lock; this one was dropped")

// background is the queue of a Writer with Options.Background: the
// records that found the journal busy, appended in order by one goroutine
// that runs while there are any.
type background struct {
	mu       sync.Mutex
	queue    [][]byte
	draining bool
	// idle is closed when the current drain ends.
	idle chan struct{}
	// closing: Close gave up waiting; a record the lock still holds up
	// is lost (and counted) instead of tried again.
	closing atomic.Bool
}

// recordBackground appends body at once when the journal is free right
// now and nothing is waiting before it (the record is then on disk when
// the decision is answered, as in the foreground); otherwise it queues it
// for the drain goroutine and returns: a stuck or busy journal never
// holds a decision up, and decisions never wait for one another's
// records.
func (w *Writer) recordBackground(body []byte) {
	w.bg.mu.Lock()
	busy := w.bg.draining
	w.bg.mu.Unlock()
	if !busy && w.mu.TryLock() {
		err := w.appendLocked(body, 0)
		w.mu.Unlock()
		if err == nil {
			return
		}
		if !isLockTimeout(err) {
			w.fail(err)
			return
		}
	}
	w.bg.mu.Lock()
	if len(w.bg.queue) >= MaxPending {
		w.bg.mu.Unlock()
		w.fail(errQueueFull)
		return
	}
	w.bg.queue = append(w.bg.queue, body)
	start := !w.bg.draining
	if start {
		w.bg.draining = true
		w.bg.idle = make(chan struct{})
	}
	w.bg.mu.Unlock()
	if start {
		go w.drain()
	}
}

// drain appends the queued records in order until none is left. A record
// that finds the lock still taken after LockWait is tried again, not
// dropped: the drain is off the decision path, so the wait delays no
// decision, while a dropped record would be a decision on no record (a
// lock held a little longer than LockWait, on a loaded machine, lost one
// record per LockWait). What waits is bounded by MaxPending; Close counts
// what is left as lost.
func (w *Writer) drain() {
	for {
		w.bg.mu.Lock()
		if len(w.bg.queue) == 0 {
			w.bg.draining = false
			close(w.bg.idle)
			w.bg.mu.Unlock()
			return
		}
		body := w.bg.queue[0]
		w.bg.queue[0] = nil
		w.bg.queue = w.bg.queue[1:]
		w.bg.mu.Unlock()
		for {
			err := w.append(body)
			if err == nil {
				break
			}
			if !isLockTimeout(err) || w.bg.closing.Load() {
				w.fail(err)
				break
			}
		}
	}
}

// Flush waits until the records queued by a Background writer are
// appended (or lost), at most wait; it reports whether the queue is empty.
func (w *Writer) Flush(wait time.Duration) bool {
	w.bg.mu.Lock()
	idle, draining := w.bg.idle, w.bg.draining
	w.bg.mu.Unlock()
	if !draining {
		return true
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-idle:
		return true
	case <-t.C:
		return false
	}
}

func isLockTimeout(err error) bool {
	return errors.Is(err, fsutil.ErrLockTimeout)
}

// drop counts the records still queued as lost (Close, when Flush ran out
// of time).
func (w *Writer) drop() {
	w.bg.mu.Lock()
	n := len(w.bg.queue)
	w.bg.queue = nil
	w.bg.mu.Unlock()
	for range n {
		w.fail(errors.New("the journal was closed with records still waiting for its lock"))
	}
}
