package rule

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"
)

// hostileRules are rules that allocate in proportion to the firing on
// every step of a loop, or grow their output by nesting, each with where
// it must be stopped: refused at compile time (refused holds the reason),
// or evaluated within allocBound and the time bound (decided or erring).
var hostileRules = []struct {
	src, refused string
}{
	// In a loop: a string built per step.
	{`len(map(1..99000, {args.command + "x"})) > 0`, "string concatenation (+) is not allowed inside a loop"},
	{`len(map(1..99000, {args.command + string(#)})) > 0`, "inside a loop"},
	{`count(1..99000, upper(args.command) != "") == 99000`, "upper() is not allowed inside a loop"},
	{`count(1..99000, lower(args.command) != "") == 99000`, "lower() is not allowed inside a loop"},
	{`count(1..99000, len(string(args)) > 0) == 99000`, "string() is not allowed inside a loop"},
	{`count(1..99000, toJSON(payload) != "") == 99000`, "toJSON() is not allowed inside a loop"},
	{`count(1..99000, fromJSON(args.json) != nil) == 99000`, "fromJSON() is not allowed inside a loop"},
	{`count(1..99000, toBase64(args.command) != "") == 99000`, "toBase64() is not allowed inside a loop"},
	{`count(1..99000, fromBase64(args.b64) != "") == 99000`, "fromBase64() is not allowed inside a loop"},
	{`count(1..99000, len(split(args.command, "")) > 0) == 99000`, "split() is not allowed inside a loop"},
	{`count(1..99000, len(splitAfter(args.command, "")) > 0) == 99000`, "splitAfter() is not allowed inside a loop"},
	{`count(1..99000, len(keys(payload)) > 0) == 99000`, "keys() is not allowed inside a loop"},
	{`count(1..99000, len(values(payload)) > 0) == 99000`, "values() is not allowed inside a loop"},
	// Anywhere: expr's uniq compares every element with every one kept
	// (8 million distinct numbers in a 64 MiB payload: 3·10^13
	// comparisons, none of them counted by the memory budget).
	{`len(uniq(args.list)) < len(args.list)`, "uniq() is not allowed in rules"},
	{`count(1..99000, len(uniq(args.list)) > 0) == 99000`, "uniq() is not allowed in rules"},
	{`count(1..99000, len(reverse(args.list)) > 0) == 99000`, "reverse() is not allowed inside a loop"},
	{`count(1..99000, median(args.nums) > 0) == 99000`, "median() is not allowed inside a loop"},
	{`count(1..99000, args.command matches args.pattern) == 99000`, "pattern that is not a constant string"},
	{`count(1..99000, args.command matches (args.pattern ?? "x")) == 99000`, "pattern that is not a constant string"},
	// Outside loops: output grown by nesting, or by many operations.
	{`len(toJSON(toJSON(toJSON(toJSON(toJSON(toJSON(args.command))))))) > 0`, "toJSON() of a value the rule built"},
	{`len(toBase64(toBase64(toBase64(args.command)))) > 0`, "toBase64() of a value the rule built"},
	{`len(toJSON([payload, payload, payload, payload, payload, payload])) > 0`, "toJSON() of a value the rule built"},
	{`len(toJSON(args.command + args.command)) > 0`, "toJSON() of a value the rule built"},
	{`len(toJSON(payload) + toJSON(payload) + toJSON(payload)) > 0`, "at most 2 calls of toJSON"},
	{`len(upper(lower(upper(lower(upper(lower(upper(lower(upper(args.command)))))))))) > 0`, "at most 8"},
	{`len(` + strings.Repeat(`args.command + `, 9) + `"") > 0`, "at most 8"},
	// Outside loops, allowed: bounded when they run.
	{`len(args.command + args.command + args.command + args.command + args.command) > 0`, ""},
	{`len(upper(lower(upper(lower(upper(lower(upper(lower(args.command))))))))) > 0`, ""},
	{`len(toJSON(payload) + toJSON(args)) > 0`, ""},
	{`len(split(args.command, "")) > 0 && len(splitAfter(args.command, "")) > 0`, ""},
	{`len(split(args.command, " ")) > 0`, ""},
	{`args.command matches args.pattern`, ""},
	// In a loop, allowed: substrings, reads and constant patterns.
	{`count(1..99000, trim(args.command, "a") != "" || trimPrefix(args.command, "a") != "") == 99000`, ""},
	{`count(1..99000, args.command matches "^a+b$") > 0`, ""},
}

// allocBound is what a hostile rule may allocate on a 1 MiB argument
// (hostileInput's firing).
const allocBound = 128 << 20

func hostileInput() *Input {
	// Letters for upper and lower to change, and what JSON escapes.
	cmd := strings.Repeat(`a\"< `, 1<<20/5)
	args := map[string]any{"command": cmd, "pattern": "(" + strings.Repeat("a", 2*MaxPatternBytes) + ")+",
		"json": `{"a": 1}`, "b64": "YQ==",
		"list": []any{"a", "b"}, "nums": []any{1, 2, 3}}
	return &Input{Tool: "terminal", Args: args, Payload: map[string]any{"tool_input": args}}
}

// Every hostile rule is refused with its reason, or decides (or errs)
// within allocBound bytes and the time bound.
func TestHostileRulesBounded(t *testing.T) {
	// The bytes are what this test bounds; the time bound is held by the
	// tests of quarantine. Under -race on a loaded machine a 99,000-step
	// loop passes 0.5 s, and a late evaluation left running would race
	// with the next test's hooks: a bound only a hang meets.
	saved := defaultBound
	defaultBound = 5 * time.Minute
	defer func() { defaultBound = saved }()
	in := hostileInput()
	for _, tc := range hostileRules {
		r, err := Compile(tc.src)
		if tc.refused != "" {
			if err == nil || !strings.Contains(err.Error(), tc.refused) {
				t.Errorf("Compile(%.70s) = %v; want refused: %s", tc.src, err, tc.refused)
			}
			continue
		}
		if err != nil {
			t.Errorf("Compile(%.70s): %v", tc.src, err)
			continue
		}
		alloc, err := measure(r, in)
		t.Logf("%.70s: %d KiB, %v", tc.src, alloc>>10, err)
		if errors.Is(err, ErrTimeout) {
			t.Errorf("%.70s: %v", tc.src, err)
		}
		if alloc > allocBound {
			t.Errorf("%.70s allocated %d MiB; at most %d", tc.src, alloc>>20, allocBound>>20)
		}
	}
}

// measure is the bytes one evaluation allocates (the process's, so tests
// of this package do not run in parallel).
func measure(r *Rule, in *Input) (uint64, error) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	_, err := r.Eval(ctx, in)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc, err
}

// The bounded `+`, `matches` and split decide as expr's own do.
func TestBoundedOperationsDecide(t *testing.T) {
	in := &Input{Cwd: "/srv/app/", Args: map[string]any{"a": "/srv", "b": "app", "n": 3, "f": 1.5,
		"p": "^/s.v$", "c": "a,b,,c", "none": nil, "list": []any{"1", "2"}}}
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{`args.a + "/" + args.b + "/" == cwd`, true},
		{`trimSuffix(cwd, "/") + "/" == cwd`, true},
		{`args.n + 1 == 4 && args.f + args.n == 4.5 && args.n + args.f == 4.5`, true},
		{`args.a matches args.p`, true},
		{`args.b matches args.p`, false},
		{`not (args.b matches args.p)`, true},
		{`args.none matches args.p`, false},
		{`args.a matches args.none`, false},
		{`split(args.c, ",") == ["a", "b", "", "c"]`, true},
		{`split(args.c, ",", 2) == ["a", "b,,c"]`, true},
		{`split(args.c, ",", 0) == []`, true},
		{`split(args.c, "") == ["a", ",", "b", ",", ",", "c"]`, true},
		{`splitAfter(args.c, ",") == ["a,", "b,", ",", "c"]`, true},
		{`splitAfter(args.c, ",", -1) == ["a,", "b,", ",", "c"]`, true},
		{`any(args.list, int(#) + 1 == 3)`, true},
		{`len(split(args.c, ",")) == 4 && lower("AB") == "ab"`, true},
	} {
		got, err := eval(t, tc.src, in)
		if err != nil || got != tc.want {
			t.Errorf("%s = %v, %v; want %v", tc.src, got, err, tc.want)
		}
	}
	in.Args["big"] = strings.Repeat(`\pL{1000}`, MaxPatternBytes/9) // 455,000 instructions
	for _, src := range []string{`args.a + args.n == ""`, `args.a matches args.b + "("`, `args.a matches args.big`} {
		if _, err := eval(t, src, in); err == nil {
			t.Errorf("%s: no error", src)
		}
	}
}
