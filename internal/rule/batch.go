package rule

import (
	"context"
	"sync"
	"time"
)

// Task is one rule to decide in a batch (EvalAll) and, once EvalAll
// returns, its answer: OK and Err as Eval returns them, and Elapsed, the
// time the rule took. Bound is the rule's own time bound (0 or more than
// DefaultTimeout: DefaultTimeout).
type Task struct {
	Rule  *Rule
	In    *Input
	Bound time.Duration

	OK      bool
	Err     error
	Elapsed time.Duration
}

func (t Task) bound() time.Duration {
	if t.Bound <= 0 {
		return defaultBound
	}
	return min(t.Bound, defaultBound)
}

// EvalAll decides the tasks' rules one after another on one goroutine,
// each under its own bound (and all under ctx's deadline): what a firing
// with many rules pays once instead of a goroutine and a timer per rule;
// the answers are the ones Eval would give each.
//
// One timer watches the pass, set to the shortest bound. When it fires,
// the rule running then is stopped only if it is past its own bound —
// a rule with a long bound that happens to run when a short bound of
// another rule ends is not (on a loaded machine a fast rule can take a
// millisecond); else the timer is set again, never longer than the
// shortest bound, so no rule overstays its bound by more than that.
//
// A rule past its bound gets ErrTimeout and is quarantined until its
// evaluation ends, as with Eval. The rules after it are then decided each
// by Eval under its own bound, all at once, so that a runaway rule costs
// the rest at most one more bound (however many runaways there are) and
// never their answers.
func EvalAll(ctx context.Context, tasks []Task) {
	if len(tasks) == 0 {
		return
	}
	if ctx.Err() != nil {
		// Past the firing's bound (or given up): none starts, not even
		// to be abandoned (a match cannot be stopped, and would burn on).
		notStarted(tasks)
		return
	}
	shortest := defaultBound
	for i := range tasks {
		shortest = min(shortest, tasks[i].bound())
	}
	var timer *time.Timer
	var timeout <-chan time.Time
	if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > shortest {
		timer = time.NewTimer(shortest)
		defer timer.Stop()
		timeout = timer.C
	}
	b := &batch{tasks: tasks, done: make(chan struct{}), stop: newStopFlag()}
	go b.run()
	var rest []Task
wait:
	for {
		select {
		case <-b.done:
			return
		case <-ctx.Done():
			rest = b.abandon()
			break wait
		case <-timeout:
			left, r, stopped := b.expire()
			if !stopped {
				timer.Reset(min(left, shortest))
				continue
			}
			rest = r
			break wait
		}
	}
	if ctx.Err() != nil {
		notStarted(rest)
		return
	}
	var wg sync.WaitGroup
	for i := range rest {
		wg.Add(1)
		go func(t *Task) {
			defer wg.Done()
			ctx := ctx
			if t.bound() < defaultBound {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, t.bound())
				defer cancel()
			}
			start := time.Now()
			t.OK, t.Err = t.Rule.Eval(ctx, t.In)
			t.Elapsed = time.Since(start)
		}(&rest[i])
	}
	wg.Wait()
}

// notStarted answers tasks without evaluating them: their time is up.
func notStarted(tasks []Task) {
	for i := range tasks {
		tasks[i].OK, tasks[i].Err = false, ErrNotStarted
	}
}

// batch is EvalAll's state shared with its goroutine: next is the first
// task without an answer, running whether the goroutine is deciding it,
// abandoned whether EvalAll stopped waiting; stop is set when the rule
// running is abandoned, so that it stops at its loop's next step (one
// flag serves the batch: no rule starts after it is abandoned).
type batch struct {
	tasks     []Task
	done      chan struct{}
	stop      stopFlag
	mu        sync.Mutex
	next      int
	running   bool
	abandoned bool
	started   time.Time
}

func (b *batch) run() {
	defer close(b.done)
	b.mu.Lock()
	defer b.mu.Unlock()
	for !b.abandoned && b.next < len(b.tasks) {
		t := &b.tasks[b.next]
		if t.Rule.quarantined() {
			t.Err = ErrQuarantined
			b.next++
			continue
		}
		b.running, b.started = true, time.Now()
		b.mu.Unlock()
		ok, err := t.Rule.run(t.In, b.stop)
		elapsed := time.Since(b.started)
		b.mu.Lock()
		b.running = false
		if b.abandoned {
			// EvalAll reported this one past its bound and quarantined
			// it: it has ended now.
			t.Rule.late.Add(-1)
			if lateEnded != nil {
				lateEnded(err)
			}
			return
		}
		t.OK, t.Err, t.Elapsed = ok, err, elapsed
		b.next++
	}
}

// expire is the timer's turn. When the rule running is past its own
// bound, the batch is abandoned there, in the same hold of the lock that
// saw it (the rule after it, started a moment later, is never the one
// stopped): the tasks after it are returned, stopped true. Otherwise it
// says how long the rule running has left (between two rules, the whole
// default bound: the caller waits the shortest bound again).
func (b *batch) expire() (left time.Duration, rest []Task, stopped bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.next >= len(b.tasks) || !b.running {
		return defaultBound, nil, false
	}
	if left = b.tasks[b.next].bound() - time.Since(b.started); left > 0 {
		return left, nil, false
	}
	return 0, b.abandonLocked(), true
}

// abandon stops the batch where it is (the caller's context ended): the
// rule running (if one is) is reported past its bound, and the tasks
// after it are returned undecided.
func (b *batch) abandon() []Task {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.abandonLocked()
}

// abandonLocked is abandon with b.mu held.
func (b *batch) abandonLocked() []Task {
	b.abandoned = true
	if b.next >= len(b.tasks) {
		return nil
	}
	if !b.running {
		return b.tasks[b.next:]
	}
	t := &b.tasks[b.next]
	t.Rule.late.Add(1)
	b.stop.set()
	t.OK, t.Err, t.Elapsed = false, ErrTimeout, time.Since(b.started)
	return b.tasks[b.next+1:]
}
