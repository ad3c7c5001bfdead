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
	w := New(Options{Path: p, Background: true, LockWait: time.Hour})
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
