package export

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// counterHoldEnv tells the re-executed test binary to hold the lock of
// the dropped counter at its path until its stdin closes.
const counterHoldEnv = "HERMES_TEST_SPOOL_HOLD_COUNTER"

// The child of TestSpoolFullCountsOutsideItsLock: another process (a hook's
// one-shot process, slow or stopped mid-count) that holds the counter.
func TestSpoolCounterHolder(t *testing.T) {
	p := os.Getenv(counterHoldEnv)
	if p == "" {
		t.Skip("the child of TestSpoolFullCountsOutsideItsLock")
	}
	_ = proctest.HoldLocked(func() (func(), error) {
		f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o600)
		if err != nil {
			return nil, err
		}
		unlock, err := fsutil.FlockWithin(f, time.Minute)
		if err != nil {
			f.Close()
			return nil, err
		}
		return func() { unlock(); f.Close() }, nil
	})
}

// holdCounter starts a process that holds the lock of sp's dropped counter
// and returns once it does; release (also a cleanup) ends it.
func holdCounter(t *testing.T, sp Spool) (release func()) {
	t.Helper()
	return proctest.StartHolder(t, sp.droppedPath(), counterHoldEnv+"="+sp.droppedPath(),
		"-test.run=^TestSpoolCounterHolder$", "-test.count=1")
}

// A process that holds the dropped counter (for up to its 2 s wait) must
// not hold up the spool: an Append that finds the spool full counts its
// drop after letting the spool's lock go, so every other one-shot process
// still gets that lock within its 250 ms (it kept it while waiting for the
// counter, and each of them then dropped its record too).
func TestSpoolFullCountsOutsideItsLock(t *testing.T) {
	sp := Spool{Dir: t.TempDir(), Max: 1}
	if err := os.WriteFile(sp.live(), []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	holdCounter(t, sp)
	done := make(chan error, 1)
	go func() { done <- sp.Append([]byte(allowLine)) }()
	f, err := os.OpenFile(sp.live(), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// Take the spool's lock as another Append does, again and again, until
	// the full one has given up on the counter.
	deadline := time.After(hang)
	for {
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "is full") {
				t.Fatalf("Append to a full spool: %v", err)
			}
			return
		case <-deadline:
			t.Fatal("Append hung")
		default:
		}
		unlock, err := fsutil.FlockWithin(f, spoolLockWait)
		if err != nil {
			t.Fatalf("the spool's lock was held past %v while another process held the dropped counter: %v", spoolLockWait, err)
		}
		unlock()
	}
}
