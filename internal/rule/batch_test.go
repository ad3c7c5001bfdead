package rule

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// EvalAll gives every task the answer Eval gives it, errors included.
func TestEvalAllAnswersAsEval(t *testing.T) {
	in := &Input{Tool: "terminal", Args: map[string]any{"command": "rm -rf /"}}
	var tasks []Task
	var want []Task
	for _, src := range []string{rmRF, `false`, `args.nope == 1`, `tool == "terminal"`, `int(args.command) > 0`} {
		r, err := Compile(src)
		if err != nil {
			t.Fatal(err)
		}
		ok, err := r.Eval(context.Background(), in)
		want = append(want, Task{OK: ok, Err: err})
		tasks = append(tasks, Task{Rule: r, In: in})
	}
	EvalAll(context.Background(), tasks)
	for i := range tasks {
		if tasks[i].OK != want[i].OK || (tasks[i].Err == nil) != (want[i].Err == nil) ||
			(tasks[i].Err != nil && tasks[i].Err.Error() != want[i].Err.Error()) {
			t.Errorf("task %d: %v, %v; Eval: %v, %v", i, tasks[i].OK, tasks[i].Err, want[i].OK, want[i].Err)
		}
	}
}

// A runaway rule in a batch passes the one bound: it is reported as timed
// out and quarantined until it ends, and the rules after it still decide
// (a blocking rule behind a runaway one is not lost).
func TestEvalAllRunaway(t *testing.T) {
	// Only the runaway has a short bound: with every rule's bound 1 ms,
	// the quick rule after it (decided by Eval on a goroutine of its own)
	// passed its bound too on a loaded machine, waiting to be scheduled.
	defer func(d time.Duration) { defaultBound = d }(defaultBound)
	defaultBound = 5 * time.Minute // the hang guard
	ended := make(chan struct{})
	lateEnded = func(error) { close(ended) }
	defer func() { lateEnded = nil }()
	// A tenth of a second or more on forty bytes of "abab…" (far past
	// the 1 ms bound, and short under -race), and builds nothing; true
	// at once on "a".
	slow, err := Compile(`args.s == "a" || count(1..99999, args.s matches "a.*[cx].*[dy]$") > 0`)
	if err != nil {
		t.Fatal(err)
	}
	yes, err := Compile(`tool == "terminal"`)
	if err != nil {
		t.Fatal(err)
	}
	in := &Input{Tool: "terminal", Args: map[string]any{"s": strings.Repeat("ab", 20)}}
	// The runaway is held at its start until the test has seen it
	// quarantined: once past its bound it stops at its loop's next step
	// (stop.go), which can come before the test looks.
	slowIn := &Input{Tool: "terminal", Args: in.Args}
	gate := make(chan struct{})
	testRun = func(in *Input) {
		if in == slowIn {
			<-gate
		}
	}
	defer func() { testRun = nil }()
	tasks := []Task{{Rule: yes, In: in}, {Rule: slow, In: slowIn, Bound: time.Millisecond}, {Rule: yes, In: in}}
	start := time.Now()
	EvalAll(context.Background(), tasks)
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("EvalAll returned after %v: the bound did not hold", d)
	}
	if !tasks[0].OK || tasks[0].Err != nil || !tasks[2].OK || tasks[2].Err != nil {
		t.Fatalf("the rules around the runaway: %+v, %+v", tasks[0], tasks[2])
	}
	if !errors.Is(tasks[1].Err, ErrTimeout) {
		t.Fatalf("runaway: %v, want ErrTimeout", tasks[1].Err)
	}
	again := []Task{{Rule: slow, In: &Input{Args: map[string]any{"s": "a"}}}}
	EvalAll(context.Background(), again)
	if !errors.Is(again[0].Err, ErrQuarantined) {
		t.Fatalf("while the late one runs: %v, want ErrQuarantined", again[0].Err)
	}
	close(gate)
	select {
	case <-ended:
	case <-time.After(5 * time.Minute):
		t.Fatal("the late evaluation never ended")
	}
	EvalAll(context.Background(), again)
	if again[0].Err != nil || !again[0].OK {
		t.Fatalf("after the late one ended: %v, %v; want true", again[0].OK, again[0].Err)
	}
}

// Each rule in a batch has its own bound: a rule that takes longer than
// another rule's short bound, but not its own, is answered — the batch's
// one timer, set to the shortest bound, stops only a rule past its own.
// (One bound for the pass, the shortest, once stopped a fast rule that
// took a millisecond on a loaded machine because another rule's bound
// was 1 ms.)
func TestEvalAllBoundIsEachRules(t *testing.T) {
	defer func(d time.Duration) { defaultBound = d }(defaultBound)
	defaultBound = 5 * time.Minute // the hang guard
	// Tens of milliseconds or more on forty bytes of "abab…": far past
	// the other rule's 1 ms.
	slow, err := Compile(`count(1..20000, args.s matches "a.*[cx].*[dy]$") == 0`)
	if err != nil {
		t.Fatal(err)
	}
	short, err := Compile(`tool == "terminal"`)
	if err != nil {
		t.Fatal(err)
	}
	in := &Input{Tool: "terminal", Args: map[string]any{"s": strings.Repeat("ab", 20)}}
	tasks := []Task{{Rule: short, In: in, Bound: time.Millisecond}, {Rule: slow, In: in}}
	EvalAll(context.Background(), tasks)
	if tasks[1].Err != nil || !tasks[1].OK {
		t.Fatalf("the rule with the long bound, %v in: %v, %v; want true", tasks[1].Elapsed, tasks[1].OK, tasks[1].Err)
	}
	if tasks[1].Elapsed < time.Millisecond {
		t.Skipf("the slow rule took %v, not past the other's bound: nothing tested", tasks[1].Elapsed)
	}
}

// Past the firing's bound (its context done) EvalAll starts no rule: each
// is answered ErrNotStarted, a timeout, and none is quarantined (a match
// that cannot be stopped would burn on after its answer).
func TestEvalAllPastTheFiringsBound(t *testing.T) {
	r, err := Compile(`tool == "terminal"`)
	if err != nil {
		t.Fatal(err)
	}
	started := 0
	testRun = func(*Input) { started++ }
	defer func() { testRun = nil }()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	tasks := []Task{{Rule: r, In: &Input{Tool: "terminal"}}, {Rule: r, In: &Input{Tool: "terminal"}}}
	EvalAll(ctx, tasks)
	for i, task := range tasks {
		if task.OK || !errors.Is(task.Err, ErrNotStarted) || !errors.Is(task.Err, ErrTimeout) {
			t.Errorf("task %d: %v, %v; want ErrNotStarted", i, task.OK, task.Err)
		}
	}
	if started != 0 || r.quarantined() {
		t.Errorf("%d evaluations started, quarantined %v: want none", started, r.quarantined())
	}
	if got := FiringBound(time.Millisecond, 0, time.Hour); got != 2*DefaultTimeout {
		t.Errorf("FiringBound: %v, want twice the longest bound a rule can have", got)
	}
	if got := FiringBound(time.Millisecond, 3*time.Millisecond); got != 6*time.Millisecond {
		t.Errorf("FiringBound: %v, want 6ms", got)
	}
}
