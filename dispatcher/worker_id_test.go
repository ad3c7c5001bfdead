//go:build unix

package dispatcher

import "testing"

// A worker must not be able to answer a request it has not seen: with ids
// in sequence, a hostile worker wrote request n+1's reply right after
// request n's, and when that line arrived after the next request had been
// checked for stray output (a loaded machine), it was taken for that
// request's answer (TestServeHostileWorkers/ahead: "call two was given
// call one's answer"). Ids are drawn at random below 2^53, never 0.
func TestRequestIDsAreUnpredictable(t *testing.T) {
	prev := newRequestID()
	for range 10000 {
		id := newRequestID()
		if id == 0 || id >= 1<<53 {
			t.Fatalf("id %d: want 0 < id < 2^53 (a JavaScript worker echoes it exactly)", id)
		}
		if id == prev+1 || id == prev {
			t.Fatalf("id %d follows %d: the next id can be guessed", id, prev)
		}
		prev = id
	}
}
