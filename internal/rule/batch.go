package rule

import (
	"context"
	"sync"
	"time"
)

// Task is one rule to decide in a batch (EvalAll) and, once EvalAll
// returns, its answer: OK and Err as Eval returns them, and Elapsed, the
// time the rule took.
type Task struct {
	Rule *Rule
	In   *Input

	OK      bool
	Err     error
	Elapsed time.Duration
}

// EvalAll decides the tasks' rules one after another on one goroutine
// under one bound: the earliest of ctx's deadline, bound and
// DefaultTimeout. That is what a firing with many rules pays once instead
// of a goroutine and a timer per rule; the answers are the ones Eval would
// give each.
//
// A rule that passes the bound is the one running when it ends: it gets
// ErrTimeout and is quarantined until its evaluation ends, as with Eval.
// The rules after it are then decided each by Eval, all at once, so that a
// runaway rule costs the rest at most one more bound (however many
// runaways there are) and never their answers.
func EvalAll(ctx context.Context, bound time.Duration, tasks []Task) {
	if len(tasks) == 0 {
		return
	}
	bound = min(bound, defaultBound)
	var timeout <-chan time.Time
	if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > bound {
		t := time.NewTimer(bound)
		defer t.Stop()
		timeout = t.C
	}
	b := &batch{tasks: tasks, done: make(chan struct{})}
	go b.run()
	select {
	case <-b.done:
		return
	case <-ctx.Done():
	case <-timeout:
	}
	rest := b.abandon()
	var wg sync.WaitGroup
	for i := range rest {
		wg.Add(1)
		go func(t *Task) {
			defer wg.Done()
			start := time.Now()
			t.OK, t.Err = t.Rule.Eval(ctx, t.In)
			t.Elapsed = time.Since(start)
		}(&rest[i])
	}
	wg.Wait()
}

// batch is EvalAll's state shared with its goroutine: next is the first
// task without an answer, running whether the goroutine is deciding it,
// abandoned whether EvalAll stopped waiting.
type batch struct {
	tasks     []Task
	done      chan struct{}
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
		if t.Rule.quarantined.Load() {
			t.Err = ErrQuarantined
			b.next++
			continue
		}
		b.running, b.started = true, time.Now()
		b.mu.Unlock()
		ok, err := t.Rule.run(t.In)
		elapsed := time.Since(b.started)
		b.mu.Lock()
		b.running = false
		if b.abandoned {
			// EvalAll reported this one past its bound and quarantined
			// it: it has ended now.
			t.Rule.quarantined.Store(false)
			if lateEnded != nil {
				lateEnded()
			}
			return
		}
		t.OK, t.Err, t.Elapsed = ok, err, elapsed
		b.next++
	}
}

// abandon stops the batch where it is: the rule running (if one is) is
// past its bound, and the tasks after it are returned undecided.
func (b *batch) abandon() []Task {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.abandoned = true
	if b.next >= len(b.tasks) {
		return nil
	}
	if !b.running {
		return b.tasks[b.next:]
	}
	t := &b.tasks[b.next]
	t.Rule.quarantined.Store(true)
	t.OK, t.Err, t.Elapsed = false, ErrTimeout, time.Since(b.started)
	return b.tasks[b.next+1:]
}
