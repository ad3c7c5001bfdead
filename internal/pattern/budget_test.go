package pattern

import (
	"strings"
	"testing"
	"time"
)

// shortTimeouts shortens MatchTimeout and DispatchBudget for one test
// (set before compiling: a Regex keeps its MatchTimeout).
func shortTimeouts(t *testing.T) {
	old, oldBudget := MatchTimeout, DispatchBudget
	MatchTimeout, DispatchBudget = 20*time.Millisecond, 50*time.Millisecond
	t.Cleanup(func() { MatchTimeout, DispatchBudget = old, oldBudget })
}

// Catastrophic backtracking is cut off and says so (done=false), in both
// dialects; a spent budget runs no backtracking match at all, not even one
// that would answer at once.
func TestBacktrackingTimesOut(t *testing.T) {
	shortTimeouts(t)
	evil := strings.Repeat("a", 40) + "c"
	start := time.Now()
	for _, c := range []struct {
		compile func(string) (*Regex, error)
		pattern string
	}{
		{CompilePython, `(a+)+\1b`},
		{CompileJS, `^(a+)+\1b`},
	} {
		r, err := c.compile(c.pattern)
		if err != nil || r.slow == nil {
			t.Fatalf("%q: %v, want the backtracking engine", c.pattern, err)
		}
		if _, done := r.Match(evil, nil); done {
			t.Fatalf("%q: expected the match to time out", c.pattern)
		}
		var b Budget
		if _, done := r.Match(evil, &b); done {
			t.Fatalf("%q: expected the match to time out within a budget", c.pattern)
		}
		if b.spent <= 0 {
			t.Fatalf("%q: the timed-out match spent no budget", c.pattern)
		}
	}
	// Without the bounds, (a+)+\1b on 40 a's runs for hours: a hang
	// guard, not a speed bound.
	if d := time.Since(start); d > time.Minute {
		t.Fatalf("timeouts took %v", d)
	}
	// A match that answers at once must answer however loaded the
	// machine: 20 ms is one scheduling delay on a busy one.
	MatchTimeout = time.Minute
	quick, err := CompilePython(`(?=t)terminal`)
	if err != nil {
		t.Fatal(err)
	}
	spent := Budget{spent: DispatchBudget}
	if _, done := quick.Match("terminal", &spent); done {
		t.Fatal("a spent budget ran a backtracking match")
	}
	var full Budget // the zero value is a full budget
	if ok, done := quick.Match("terminal", &full); !ok || !done {
		t.Fatalf("budget left: %v %v, want a match", ok, done)
	}
	// RE2 needs no budget.
	plain, _ := CompilePython(`terminal`)
	if ok, done := plain.Match("terminal", &spent); !ok || !done {
		t.Fatalf("RE2 with a spent budget: %v %v", ok, done)
	}
}

// A budget bounds many slow matches together: once spent, the rest are
// not run.
func TestBudgetBoundsADispatch(t *testing.T) {
	shortTimeouts(t)
	r, err := CompilePython(`(a+)+\1b`)
	if err != nil {
		t.Fatal(err)
	}
	evil := strings.Repeat("a", 40) + "c"
	var b Budget
	ran := 0
	for i := 0; i < 100; i++ {
		before := b.spent
		r.Match(evil, &b)
		if b.spent != before {
			ran++
		}
	}
	// 50ms of budget, 20ms per match: three matches at most (the budget
	// is checked before each), however slow the machine.
	if ran < 1 || ran > 3 {
		t.Fatalf("%d matches ran on a %v budget of %v matches", ran, DispatchBudget, MatchTimeout)
	}
}

// A match that answers no, or yes, allocates nothing, on either engine.
func TestMatchAllocatesNothing(t *testing.T) {
	cases := []struct {
		compile func(string) (*Regex, error)
		pattern string
		input   string
		want    bool
	}{
		{CompilePython, `(?!terminal).*`, "terminal", false},
		{CompilePython, `(?!web_).*`, "terminal", true},
		{CompilePython, `\d+`, "١٢٣", true},
		{CompilePython, `write_.*`, "terminal", false},
		{CompileJS, `Ba(?=x)`, "terminal", false},
		{CompileJS, `Ba(?=sh)`, "Bash", true},
	}
	for _, c := range cases {
		r, err := c.compile(c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		var b Budget
		allocs := testing.AllocsPerRun(200, func() {
			// done=false is left to the other tests: regexp2's coarse
			// clock can cut a quick match short on a loaded machine.
			if ok, done := r.Match(c.input, &b); done && ok != c.want {
				t.Fatalf("%q on %q: %v", c.pattern, c.input, ok)
			}
			b = Budget{}
		})
		if allocs != 0 {
			t.Errorf("%q on %q allocated %v times", c.pattern, c.input, allocs)
		}
	}
}

func BenchmarkMatch(b *testing.B) {
	cases := []struct {
		name    string
		compile func(string) (*Regex, error)
		pattern string
		want    bool
	}{
		{"python_re2", CompilePython, "terminal|write_.*", true},
		{"python_lookahead_match", CompilePython, "(?!web_).*", true},
		{"python_lookahead_nomatch", CompilePython, "(?!terminal).*", false},
		{"python_backref_nomatch", CompilePython, `(term)\1`, false},
		{"js_lookahead_nomatch", CompileJS, "Ba(?=x)", false},
		{"js_lookbehind_match", CompileJS, "(?<=ter)minal", true},
	}
	for _, c := range cases {
		r, err := c.compile(c.pattern)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if ok, _ := r.Match("terminal", nil); ok != c.want {
					b.Fatal("unexpected result")
				}
			}
		})
	}
}
