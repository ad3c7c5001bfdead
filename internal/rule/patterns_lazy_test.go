package rule

import (
	"context"
	"strings"
	"testing"
)

// A constant pattern is compiled the first time a firing reaches it, and
// once for every rule of the process that spells it.
func TestConstPatternCompiledWhenReached(t *testing.T) {
	const pat = `^lazy-pattern-test\\s+x`
	a, err := Compile(`tool == "terminal" && args.command matches "` + pat + `"`)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Compile(`args.command matches "` + pat + `" || tool == "x"`)
	if err != nil {
		t.Fatal(err)
	}
	p := patternFor(`^lazy-pattern-test\s+x`)
	if p.re != nil {
		t.Fatal("compiled before a firing reached it")
	}
	eval := func(r *Rule, tool, cmd string) bool {
		t.Helper()
		ok, err := r.Eval(context.Background(), &Input{Tool: tool, Args: map[string]any{"command": cmd}})
		if err != nil {
			t.Fatal(err)
		}
		return ok
	}
	if eval(a, "read_file", "lazy-pattern-test x") || p.re != nil {
		t.Fatalf("a firing that stops before the pattern: compiled %v", p.re != nil)
	}
	if !eval(a, "terminal", "lazy-pattern-test   x") || p.re == nil {
		t.Fatalf("a firing that reaches it: compiled %v", p.re != nil)
	}
	re := p.re
	if !eval(b, "y", "lazy-pattern-test x") || eval(b, "y", "ls") {
		t.Fatal("the second rule decides wrong")
	}
	if patternFor(`^lazy-pattern-test\s+x`).re != re {
		t.Fatal("the second rule compiled the pattern again")
	}
}

// What a lazily compiled pattern answers for values that are not strings
// is what expr's own `matches` answers (in the rule language's words:
// ruleWords).
func TestConstPatternOnOtherValues(t *testing.T) {
	// Not the simple shape (simple.go): the program decides every value.
	r, err := Compile(`tool != "x" && args.v matches "^1"`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		v       any
		ok      bool
		errText string
	}{
		{nil, false, ""},
		{"12", true, ""},
		{[]byte("12"), true, ""},
		{12, false, "a value of type number where string is needed"},
		{[]any{"1"}, false, "a value of type array where string is needed"},
	} {
		ok, err := r.Eval(context.Background(), &Input{Args: map[string]any{"v": tc.v}})
		if ok != tc.ok || (err == nil) != (tc.errText == "") || (err != nil && !strings.Contains(err.Error(), tc.errText)) {
			t.Errorf("%#v: %v, %v", tc.v, ok, err)
		}
	}
}

// A constant pattern's syntax and size are checked once per process, for
// every rule that spells it; one that does not parse is refused in each
// rule, at its own place, and never recorded as checked.
func TestConstPatternCheckedOnce(t *testing.T) {
	// Not the simple shape (simple.go), which parses on its own.
	if _, err := Compile(`tool != "x" && args.command matches "^checked-once-test\\s+x"`); err != nil {
		t.Fatal(err)
	}
	if !patternFor(`^checked-once-test\s+x`).checked.Load() {
		t.Fatal("a pattern that compiled is not recorded as checked")
	}
	if _, err := Compile(`tool == "x" || args.command matches "^checked-once-test\\s+x"`); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ src, at string }{
		{`tool != "x" && args.command matches "checked-once-(bad"`, "1:29"},
		{`tool == "x" || args.command matches "checked-once-(bad"`, "1:29"},
		{`args.command matches "checked-once-(bad"`, "1:14"},
	} {
		_, err := Compile(tc.src)
		if err == nil || !strings.Contains(err.Error(), "missing closing )") || !strings.Contains(err.Error(), tc.at) {
			t.Errorf("%s: %v, want the parse error at %s", tc.src, err, tc.at)
		}
	}
	if patternFor(`checked-once-(bad`).checked.Load() {
		t.Fatal("a pattern that does not parse is recorded as checked")
	}
}
