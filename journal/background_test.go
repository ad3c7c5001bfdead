package journal

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A Background writer never waits for a held lock: the record is queued,
// then appended in order once the lock is free.
func TestBackgroundNeverWaits(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := newWriter(t, Options{Path: p, Background: true, LockWait: time.Hour})
	w.Record(context.Background(), record("a"))
	if n := len(readLines(t, p)); n != 1 {
		t.Fatalf("a free journal: %d lines right after Record", n)
	}
	unlock, err := lockForTest(p + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"b", "c", "d"} {
		// LockWait is an hour: Record returning at all shows it did
		// not wait.
		w.Record(context.Background(), record(m))
	}
	if n := len(readLines(t, p)); n != 1 {
		t.Fatalf("%d lines while the lock is held", n)
	}
	unlock()
	if !w.Flush(time.Minute) {
		t.Fatal("the queue did not drain")
	}
	var msgs []string
	_ = Scan(p, func(_ Line, e *Entry) bool { msgs = append(msgs, e.Message); return true })
	if strings.Join(msgs, "") != "abcd" || w.Failures() != 0 {
		t.Fatalf("records %q, failures %d", msgs, w.Failures())
	}
	if res := mustVerify(t, p); res.Bad != nil {
		t.Fatalf("%+v", res.Bad)
	}
}

// A Background writer's queued records wait for a lock held longer than
// LockWait, and are all appended once it is free: none is dropped for a
// busy lock (the old drain dropped one record per LockWait).
func TestBackgroundOutwaitsABusyLock(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := New(Options{Path: p, Background: true, LockWait: time.Millisecond})
	defer w.Close()
	w.Record(context.Background(), record("a"))
	unlock, err := lockForTest(p + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"b", "c", "d"} {
		w.Record(context.Background(), record(m))
	}
	// Held for a hundred times LockWait: the queue must still be waiting.
	// (The old drain had emptied it by dropping all three.)
	if w.Flush(100 * time.Millisecond) {
		unlock()
		t.Fatalf("the queue emptied while the lock was held: %d failures", w.Failures())
	}
	unlock()
	if !w.Flush(time.Minute) {
		t.Fatal("the queue did not drain once the lock was free")
	}
	var msgs []string
	_ = Scan(p, func(_ Line, e *Entry) bool { msgs = append(msgs, e.Message); return true })
	if strings.Join(msgs, "") != "abcd" || w.Failures() != 0 {
		t.Fatalf("records %q, failures %d", msgs, w.Failures())
	}
}

// Close does not wait forever for a lock that stays taken: what is left is
// counted lost.
func TestBackgroundCloseGivesUpOnAStuckLock(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := New(Options{Path: p, Background: true, LockWait: time.Millisecond})
	w.Record(context.Background(), record("a"))
	unlock, err := lockForTest(p + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	w.Record(context.Background(), record("b"))
	w.Record(context.Background(), record("c"))
	done := make(chan struct{})
	go func() { w.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute): // a hang guard: Close waits closeFlush
		t.Fatal("Close hung on a stuck lock")
	}
	// Both lost and counted: the one the drain was trying when Close gave
	// up counts as soon as its next wait ends.
	deadline := time.Now().Add(time.Minute)
	for w.Failures() != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("failures %d, want the 2 queued records counted lost", w.Failures())
		}
		time.Sleep(time.Millisecond)
	}
}
