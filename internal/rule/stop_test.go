package rule

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// runaways are rules whose whole evaluation on their argument takes
// minutes (contains: 99,999 scans of 32 MiB) or hours (matches: 99,999
// runs of a pattern with no literal to search for over 1 MiB) here, and
// that build nothing, so neither limit at compile time nor the memory
// budget stops them: only the time bound does. Each is true at once on
// "a", what the tests decide once the late evaluation has ended.
var runaways = []struct{ name, src, arg string }{
	{"contains", `args.s == "a" || count(1..99999, args.s contains "zzz") > 0`, strings.Repeat("ab", 16<<20)},
	{"matches", `args.s == "a" || count(1..99999, args.s matches "a.*[cx].*[dy]$") > 0`, strings.Repeat("ab", 1<<19)},
}

// stopGuard is how long a late evaluation may run on after its bound
// before the test calls it a hang: one step of the loop takes
// milliseconds (a second under -race for matches), the whole loop
// minutes to hours.
const stopGuard = 20 * time.Second

// An evaluation past its bound stops at its loop's next step instead of
// running to the end (tens of minutes on a 64 MiB command, hours with a
// pattern): its goroutine ends, the late count drops and the rule decides
// again, by Eval and by EvalAll.
func TestLateEvaluationStops(t *testing.T) {
	for _, tc := range runaways {
		r, err := Compile(tc.src)
		if err != nil {
			t.Fatal(err)
		}
		big := &Input{Args: map[string]any{"s": tc.arg}}
		small := &Input{Args: map[string]any{"s": "a"}}
		for _, path := range []string{"Eval", "EvalAll"} {
			ended := make(chan struct{})
			lateEnded = func(error) { close(ended) }
			var err error
			switch path {
			case "Eval":
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
				_, err = r.Eval(ctx, big)
				cancel()
			case "EvalAll":
				tasks := []Task{{Rule: r, In: big, Bound: 20 * time.Millisecond}}
				EvalAll(context.Background(), tasks)
				err = tasks[0].Err
			}
			if !errors.Is(err, ErrTimeout) {
				t.Fatalf("%s %s = %v, want ErrTimeout", tc.name, path, err)
			}
			select {
			case <-ended:
			case <-time.After(stopGuard):
				t.Fatalf("%s %s: the late evaluation still ran %v after its bound", tc.name, path, stopGuard)
			}
			lateEnded = nil
			if n := r.late.Load(); n != 0 {
				t.Fatalf("%s %s: late = %d after the evaluation ended", tc.name, path, n)
			}
			if ok, err := r.Eval(context.Background(), small); !ok || err != nil {
				t.Fatalf("%s %s: Eval after the late one stopped = %v, %v; want true", tc.name, path, ok, err)
			}
		}
	}
}

// The check the guard puts in each loop's body passes the body's value
// through: what map and sum build, what filter keeps and find finds, and
// their types where the rule compares them (an int compared as an int).
func TestLoopBodiesKeepTheirValues(t *testing.T) {
	in := &Input{Tool: "terminal", Args: map[string]any{
		"list":  []any{1, 2, 3},
		"words": []any{" a ", "b", "cc"},
		"objs":  []any{map[string]any{"n": "x"}, map[string]any{"n": "y"}},
	}}
	for _, src := range []string{
		`map(1..3, # * 2) == [2, 4, 6]`,
		`map(1..3, # * 2)[0] + 1 == 3`,
		`map(args.words, trim(#)) == ["a", "b", "cc"]`,
		`map(args.objs, #.n) == ["x", "y"]`,
		`map(args.list, [#, 1])[1][0] == 2`,
		`map(args.list, # > 1) == [false, true, true]`,
		`map(filter(args.list, # > 1), # * 10) == [20, 30]`,
		`filter(args.list, # > 1) == [2, 3]`,
		`filter(args.list, # > 1 && # < 3) == [2]`,
		`len(filter(args.list, # > 5)) == 0`,
		`sum(1..4, # * 2) == 20`,
		`sum(args.list, #) == 6`,
		`sum(args.list, # * 0.5) == 3.0`,
		`count(args.list, # != 2) == 2`,
		`find(args.list, # > 1) == 2`,
		`findIndex(args.list, # > 1) == 1`,
		`findLast(args.list, # < 3) == 2`,
		`findLastIndex(args.list, # < 3) == 1`,
		`find(args.objs, #.n == "y").n == "y"`,
		`all(args.list, # > 0) && any(args.list, # == 3) && none(args.list, # > 3) && one(args.list, # == 1)`,
		`all(args.list, # > 0) && all(args.list, # < 4)`,
		`any(args.words, # == "b") || any(args.words, # == "z")`,
		`any(args.words, # matches "^c+$")`,
		`map(args.list, #index) == [0, 1, 2]`,
		`"stop" in $env == false`,
	} {
		if ok, err := eval(t, src, in); !ok || err != nil {
			t.Errorf("%s = %v, %v; want true", src, ok, err)
		}
	}
	// A body that is not a boolean where one is needed fails as before.
	if _, err := eval(t, `any(args.list, #)`, in); err == nil {
		t.Error("any(args.list, #) on numbers decided; want an error")
	}
}

// The step check and the stopping commands() are the guard's: a rule
// cannot call them (nor hand commands() an Input of its own), nor read or
// set the flag they check; and the flag does not show in what a rule can
// print of its Input (string($env)), set or not: a rule decides a
// replayed firing as it decided the firing.
func TestStopFlagUnreachable(t *testing.T) {
	for _, src := range []string{`#step($env, true)`, `$env.stop == nil`, `stop == nil`, `$env["stop"] == nil`,
		`len(#commands($env, "ls")) > 0`, `len(commands("ls", $env)) > 0`} {
		r, err := Compile(src)
		if err == nil {
			_, err = r.Eval(context.Background(), &Input{})
		}
		if err == nil {
			t.Errorf("%s decided; want an error", src)
		}
	}
	in := &Input{Tool: "terminal", Args: map[string]any{"command": "ls"}}
	want := fmt.Sprint(in)
	cp := *in
	cp.stop = newStopFlag()
	if got := fmt.Sprint(&cp); got != want {
		t.Errorf("with a flag, an Input prints %s; without %s", got, want)
	}
	cp.stop.set()
	if got := fmt.Sprint(&cp); got != want {
		t.Errorf("with its flag set, an Input prints %s; without %s", got, want)
	}
}

// With its flag set, an evaluation fails at the first check the guard put
// in: after a loop's first step, and after a match outside any loop (a
// rule may chain dozens, each seconds over a command of megabytes), so
// that nothing after it runs. Each rule would be true without the flag.
func TestStoppedEvaluationFails(t *testing.T) {
	in := &Input{Tool: "terminal", Args: map[string]any{"s": "y", "p": "y", "list": []any{1, 2}}}
	for _, src := range []string{
		`count(args.list, # > 0) == 2`,
		`map(args.list, # * 2) == [2, 4]`,
		`args.s matches "x" || args.s matches "y"`,
		`args.s matches args.p`,
		`tool == "terminal" && (args.s matches "^y$")`,
	} {
		r, err := Compile(src)
		if err != nil {
			t.Fatal(err)
		}
		if ok, err := r.run(in, nil); !ok || err != nil {
			t.Fatalf("%s without a flag = %v, %v; want true", src, ok, err)
		}
		stop := newStopFlag()
		stop.set()
		if _, err := r.run(in, stop); err == nil || !strings.Contains(err.Error(), errStopped.Error()) {
			t.Errorf("%s with its flag set: err = %v, want %q", src, err, errStopped)
		}
	}
}

// commands() past the evaluation's bound ends at its next command: the
// analysis reads the stop flag (permrule.CommandsUntil), so a line built
// to be slow does not keep the rule quarantined for its whole length.
// The evaluation is held until its bound has passed, then let go: it
// must end with the time bound's error, not list the line's commands.
func TestCommandsStopsPastItsBound(t *testing.T) {
	r, err := Compile(`any(commands(args.command), # matches "^rm\\s")`)
	if err != nil {
		t.Fatal(err)
	}
	in := &Input{Args: map[string]any{"command": "ls; rm -rf x"}}
	gate := make(chan struct{})
	testRun = func(got *Input) {
		if got.Args["command"] == in.Args["command"] {
			<-gate
		}
	}
	lateErr := make(chan error, 1)
	lateEnded = func(err error) { lateErr <- err }
	defer func() { testRun, lateEnded = nil, nil }()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.Eval(ctx, in); !errors.Is(err, ErrTimeout) {
		t.Fatalf("Eval = %v, want ErrTimeout", err)
	}
	close(gate)
	select {
	case err := <-lateErr:
		if err == nil || !strings.Contains(err.Error(), "analysis was stopped") {
			t.Fatalf("the late evaluation ended with %v; want commands() stopped by the time bound", err)
		}
	case <-time.After(stopGuard):
		t.Fatal("the late evaluation never ended")
	}
	if ok, err := r.Eval(context.Background(), in); !ok || err != nil {
		t.Fatalf("Eval after the late one ended = %v, %v; want true", ok, err)
	}
}
