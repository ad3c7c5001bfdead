package proctest

import (
	"testing"
	"time"
)

// GrowTimeout runs attempt with a timeout of first, then twice that, and so
// on up to last, until attempt returns true; if it never does, the test
// fails.
//
// It is for tests whose point is a timeout firing on something that must
// have started first: a hook that must write its pid before its timeout
// kills it, a worker that must answer one request before another one hangs.
// How long starting takes is the machine's business (a loaded machine can
// take seconds to start a shell), so no single short timeout is safe and a
// long one makes every run slow. attempt returns false when what had to
// start did not within timeout (nothing was proven either way, try again
// with more time); it reports real failures through t as usual.
func GrowTimeout(t testing.TB, first, last time.Duration, attempt func(timeout time.Duration) bool) {
	t.Helper()
	for timeout := first; ; timeout *= 2 {
		if attempt(timeout) {
			return
		}
		if t.Failed() {
			return
		}
		if timeout >= last {
			t.Fatalf("what the test needed did not start even within a %v timeout", timeout)
		}
		t.Logf("did not start within a %v timeout (a loaded machine?): trying again with %v", timeout, 2*timeout)
	}
}
