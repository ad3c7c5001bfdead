package rule

import (
	"context"
	"errors"
	"testing"
	"time"
)

// A rule stays quarantined while any of its late evaluations runs, not
// only until the first of them ends: in serve two firings can be past
// their bound at once, and the one that ends first must not let a third
// start beside the one still running.
func TestQuarantineHoldsWhileAnyLateEvaluationRuns(t *testing.T) {
	a, b := &Input{Tool: "a"}, &Input{Tool: "b"}
	gates := map[*Input]chan struct{}{a: make(chan struct{}), b: make(chan struct{})}
	entered := make(chan struct{}, 2)
	testRun = func(in *Input) {
		if g := gates[in]; g != nil {
			entered <- struct{}{}
			<-g
		}
	}
	ended := make(chan struct{}, 2)
	lateEnded = func(error) { ended <- struct{}{} }
	defer func() { testRun, lateEnded = nil, nil }()
	r, err := Compile(`tool == "c"`)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	errs := make(chan error, 2)
	for _, in := range []*Input{a, b} {
		go func() {
			_, err := r.Eval(ctx, in)
			errs <- err
		}()
	}
	wait := func(c chan struct{}, what string) {
		t.Helper()
		select {
		case <-c:
		case <-time.After(5 * time.Minute):
			t.Fatal(what)
		}
	}
	wait(entered, "the first evaluation never started")
	wait(entered, "the second evaluation never started")
	cancel() // both are now past their bound
	for range 2 {
		if err := <-errs; !errors.Is(err, ErrTimeout) {
			t.Fatalf("Eval = %v, want ErrTimeout", err)
		}
	}
	close(gates[b])
	wait(ended, "the late evaluation of b never ended")
	c := &Input{Tool: "c"}
	if _, err := r.Eval(context.Background(), c); !errors.Is(err, ErrQuarantined) {
		t.Fatalf("Eval while a's late evaluation runs = %v, want ErrQuarantined", err)
	}
	close(gates[a])
	wait(ended, "the late evaluation of a never ended")
	if ok, err := r.Eval(context.Background(), c); !ok || err != nil {
		t.Fatalf("Eval after both ended = %v, %v; want true", ok, err)
	}
}
