package rule

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// The rule from the example, as YAML's single quotes leave it.
const rmRF = `args.command matches "(^|[;&|]\\s*)rm\\s+-[a-zA-Z]*r[a-zA-Z]*f"`

func eval(t *testing.T, src string, in *Input) (bool, error) {
	t.Helper()
	r, err := Compile(src)
	if err != nil {
		t.Fatalf("Compile(%q): %v", src, err)
	}
	return r.Eval(context.Background(), in)
}

func TestEval(t *testing.T) {
	cmd := func(c string) *Input {
		return &Input{Event: "pre_tool_call", Tool: "terminal", ToolName: "Bash", Args: map[string]any{"command": c}}
	}
	for _, tc := range []struct {
		src  string
		in   *Input
		want bool
	}{
		{rmRF, cmd("rm -rf /"), true},
		{rmRF, cmd("ls -la"), false},
		{rmRF, cmd("echo hi; rm -rf ~"), true},
		{rmRF, cmd("echo hi;rm -Rf x"), false},
		{`args?.missing == nil`, cmd("x"), true},
		{rmRF, cmd("git rm -r --cached x"), false},
		{`tool == "terminal" && tool_name == "Bash"`, cmd("x"), true},
		{`event == "post_tool_call"`, cmd("x"), false},
		{`hasPrefix(cwd, "/srv")`, &Input{Cwd: "/srv/app"}, true},
		{`any(split(args.command, " "), # == "--force")`, cmd("git push --force"), true},
		{`payload.hook_event_name == "PreToolUse"`, &Input{Payload: map[string]any{"hook_event_name": "PreToolUse"}}, true},
		{`"x" in args`, &Input{Args: map[string]any{}}, false},
		{`agent == "codex" and session_id != ""`, &Input{Agent: "codex", SessionID: "s1"}, true},
	} {
		got, err := eval(t, tc.src, tc.in)
		if err != nil || got != tc.want {
			t.Errorf("%s on %+v = %v, %v; want %v", tc.src, tc.in, got, err, tc.want)
		}
	}
}

// A missing key or a wrong type is an evaluation error, never false: the
// caller decides whether that fails closed.
func TestEvalErrors(t *testing.T) {
	for _, src := range []string{
		`args.command matches "rm"`, // args has no command
		`args.n + 1 > 2`,            // n is a string
		`int(args.n) > 1`,
		`args.n`, // a string, not a boolean
	} {
		_, err := eval(t, src, &Input{Args: map[string]any{"n": "x"}})
		var re *Error
		if !errors.As(err, &re) {
			t.Errorf("%s: err = %v, want a rule.Error", src, err)
		}
	}
}

func TestCompileRefuses(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`args.command matches "(`, "1:"},
		{`1 + 1`, "bool"},                                      // not a boolean
		{`now() > date("2020-01-01")`, "now() is not allowed"}, // the clock
		{`len(repeat("a", 1000000000)) > 1`, "repeat() is not allowed"},
		{`join(map(1..10, args.command), "") != ""`, "join() is not allowed"},
		{`let x = args.command; x == ""`, "variables (let)"},
		{`reduce(1..10, #acc + 1) > 0`, "reduce() is not allowed"},
		{"true &&\n any(1..3, any(1..3, true))", "2:"},
		{`all(1..3, all(1..3, true))`, "inside another"},
		{`env("HOME") == ""`, "unknown"},
		{`os.Getenv("HOME") == ""`, "unknown"},
		{`readFile("/etc/passwd") == ""`, "unknown"},
		// 4 KiB of pattern whose repetitions compile to 455,000
		// instructions (120 MB, 0.2 s; minutes to match 1 MiB).
		{`args.command matches "` + strings.Repeat(`\\pL{1000}`, 400) + `"`, "instructions"},
		{`tool == "x" || args.command matches "` + strings.Repeat(`.{1000}`, 100) + `"`, "instructions"},
		{strings.Repeat("true && ", MaxNodes) + "true", "nodes"},
		{strings.Repeat(" ", MaxSourceBytes) + "true", "bytes"},
	} {
		_, err := Compile(tc.src)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Compile(%.60q) = %v, want an error with %q", tc.src, err, tc.want)
		}
	}
}

// A range or a built collection past the memory budget is an error, not an
// allocation.
func TestMemoryBudget(t *testing.T) {
	for _, src := range []string{
		`len(1..1000000000) > 0`,
		`count(1..200000, # > 0) > 0`,
		`len(map(1..90000, [#, #])) > 0`,
	} {
		_, err := eval(t, src, &Input{})
		if err == nil || !strings.Contains(err.Error(), "memory budget") {
			t.Errorf("%s: err = %v, want the memory budget", src, err)
		}
	}
}

// slowScan reads the firing 99,999 times without building anything: tens
// of milliseconds on a 2 KB argument (past a 1 ms bound), true for any
// argument, and at once on "a" (what the tests decide after a late
// evaluation ended, which must not pass a bound of its own on a loaded
// machine under -race).
const slowScan = `args.s == "a" || count(1..99999, args.s contains "abc") == 0`

// A rule whose work grows with the firing's size times a range passes its
// deadline: Eval returns at the bound, the rule is quarantined while that
// evaluation runs on, and decides again once it has ended. The late
// evaluation is held at its start until the test has seen the quarantine:
// past its bound it stops at its loop's next step (stop.go), which can
// come before the test looks.
func TestTimeoutQuarantines(t *testing.T) {
	ended := make(chan struct{})
	lateEnded = func(error) { close(ended) }
	defer func() { lateEnded = nil }()
	r, err := Compile(slowScan)
	if err != nil {
		t.Fatal(err)
	}
	in := &Input{Args: map[string]any{"s": strings.Repeat("ab", 1000)}}
	gate := make(chan struct{})
	testRun = func(got *Input) {
		if got == in {
			<-gate
		}
	}
	defer func() { testRun = nil }()
	ctx, cancel := context.WithTimeout(context.Background(), time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := r.Eval(ctx, in); !errors.Is(err, ErrTimeout) {
		t.Fatalf("Eval = %v, want ErrTimeout", err)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("Eval returned after %v: the bound did not hold", d)
	}
	small := &Input{Args: map[string]any{"s": "a"}}
	if _, err := r.Eval(context.Background(), small); !errors.Is(err, ErrQuarantined) {
		t.Fatalf("Eval while the late one runs = %v, want ErrQuarantined", err)
	}
	close(gate)
	select {
	case <-ended:
	case <-time.After(5 * time.Minute):
		t.Fatal("the late evaluation never ended")
	}
	if ok, err := r.Eval(context.Background(), small); err != nil || !ok {
		t.Fatalf("Eval after the late one ended = %v, %v; want true", ok, err)
	}
}

func TestErrorPosition(t *testing.T) {
	_, err := Compile("tool == \"x\" &&\n  nope(args)")
	var re *Error
	if !errors.As(err, &re) || re.Line != 2 {
		t.Fatalf("err = %#v, want line 2", err)
	}
}

// Without a deadline of its own (or with a later one), an evaluation is
// bounded by DefaultTimeout: the bound Eval sets itself.
func TestDefaultBound(t *testing.T) {
	defer func(d time.Duration) { defaultBound = d }(defaultBound)
	defaultBound = time.Millisecond
	r, err := Compile(slowScan)
	if err != nil {
		t.Fatal(err)
	}
	in := &Input{Args: map[string]any{"s": strings.Repeat("ab", 1000)}}
	later, cancel := context.WithTimeout(context.Background(), time.Hour)
	defer cancel()
	for _, ctx := range []context.Context{context.Background(), later} {
		ended := make(chan struct{})
		lateEnded = func(error) { close(ended) }
		if _, err := r.Eval(ctx, in); !errors.Is(err, ErrTimeout) {
			t.Fatalf("Eval = %v, want ErrTimeout", err)
		}
		select {
		case <-ended:
		case <-time.After(5 * time.Minute):
			t.Fatal("the late evaluation never ended")
		}
		lateEnded = nil
	}
}

// A value of another type than an operation needs fails in the rule
// language's words, not Go's: the message reaches the agent when a
// fail_closed rule blocks.
func TestEvalTypeErrorWording(t *testing.T) {
	list := []any{"bash", "-lc", "ls"}
	for _, src := range []string{rmRF, `args.command matches "^git"`} {
		_, err := eval(t, src, &Input{Args: map[string]any{"command": list}})
		if err == nil || strings.Contains(err.Error(), "interface") || strings.Contains(err.Error(), "uint8") ||
			!strings.Contains(err.Error(), "a value of type array where string is needed") {
			t.Errorf("%s on a list: %v; want it worded as an array where a string is needed", src, err)
		}
	}
	for in, want := range map[string]string{
		"interface conversion: interface {} is map[string]interface {}, not string": "a value of type map where string is needed",
		"interface conversion: interface {} is float64, not []uint8":                "a value of type number where string is needed",
		"no key \"command\"": "no key \"command\"",
	} {
		if got := ruleWords(in); got != want {
			t.Errorf("ruleWords(%q) = %q, want %q", in, got, want)
		}
	}
}

// A missing key's error names a key of the map it resembles first (a
// misspelt args.comand: command), else only offers ?.; it offers no key
// of a map larger than a call's arguments, and no key a rule could not
// write as .name.
func TestMissingKeySuggestsTheKeyItResembles(t *testing.T) {
	big := map[string]any{}
	for i := range maxSuggestFrom + 1 {
		big[fmt.Sprintf("k%03d", i)] = i
	}
	big["command"] = "ls"
	for _, tc := range []struct {
		key  string
		m    map[string]any
		want string
	}{
		{"comand", map[string]any{"command": "ls", "timeout": 5}, `no key "comand" (did you mean command? write ?.comand only where it may be missing)`},
		{"file_pth", map[string]any{"file_path": "x", "content": ""}, `no key "file_pth" (did you mean file_path? write ?.file_pth only where it may be missing)`},
		{"branch", map[string]any{"command": "git push"}, `no key "branch" (write ?.branch where it may be missing)`},
		{"comand", big, `no key "comand" (write ?.comand where it may be missing)`},
		{"comand", map[string]any{"comand\x1b[2J": 1, "com and": 2}, `no key "comand" (write ?.comand where it may be missing)`},
	} {
		if got := missingKey(tc.key, tc.m).Error(); got != tc.want {
			t.Errorf("missingKey(%q) = %q; want %q", tc.key, got, tc.want)
		}
	}
	// Through a rule: the evaluation's error says it.
	r, err := Compile(`args.comand contains "rm"`)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Eval(context.Background(), &Input{Args: map[string]any{"command": "rm -rf /"}})
	if err == nil || !strings.Contains(err.Error(), "did you mean command?") {
		t.Fatalf("Eval error %v; want it to name command", err)
	}
}
