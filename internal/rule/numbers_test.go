package rule

import (
	"math"
	"strings"
	"testing"
)

// Attack (hostile payload): int() of a number past an integer's range is
// Go's conversion, whose value is the platform's choice (on amd64
// int(1e20) is math.MinInt64): a guard's `int(args.timeout) > 600000`
// read a payload's timeout of 1e20 as below its limit and let the call
// through, fail_closed or not. It is an evaluation error, as int() of a
// string that is no integer is; a number in range converts as before.
func TestIntOutOfRangeFails(t *testing.T) {
	for _, v := range []any{1e20, -1e20, 9.3e18, math.Inf(1), math.NaN(), float64(math.MaxInt64)} {
		ok, err := eval(t, `int(args.timeout) > 600000`, &Input{Event: "pre_tool_call", Tool: "terminal", Args: map[string]any{"timeout": v}})
		if err == nil || !strings.Contains(err.Error(), "int(") {
			t.Errorf("int(%v): %v, %v; want an error naming int()", v, ok, err)
		}
	}
	for _, tc := range []struct {
		v    any
		want bool
	}{{600001.7, true}, {-5.5, false}, {599999, false}, {int(700000), true}, {"700000", true}, {-9.2e18, false}} {
		ok, err := eval(t, `int(args.timeout) > 600000`, &Input{Event: "pre_tool_call", Tool: "terminal", Args: map[string]any{"timeout": tc.v}})
		if err != nil || ok != tc.want {
			t.Errorf("int(%v) > 600000: %v, %v; want %v", tc.v, ok, err, tc.want)
		}
	}
}

// Attack (hostile payload): integer arithmetic on the call's numbers
// wrapped at int's range: `args.t * 1000 > 600000` and `args.t + 1 >
// 600000` were false for t = 2^63-1, so a guard on a limit let the
// largest values through. A sum, difference or product past int's range
// is the float it comes to, as Python's (Hermes') and JavaScript's
// (Claude Code's) numbers never wrap.
func TestArithmeticDoesNotWrap(t *testing.T) {
	for _, tc := range []struct {
		src  string
		v    int
		want bool
	}{
		{`args.t * 1000 > 600000`, math.MaxInt64, true},
		{`args.t * 1000 < -600000`, math.MinInt64 + 1, true},
		{`args.t + 1 > 600000`, math.MaxInt64, true},
		{`1 + args.t > 600000`, math.MaxInt64, true},
		{`args.t - 1 < 0`, math.MinInt64, true},
		{`0 - args.t > 600000`, math.MinInt64, true},
		{`args.t * -1 > 600000`, math.MinInt64, true},
		{`any([args.t], # * 2 > 600000)`, math.MaxInt64, true},
		{`args.t * 2 == 18446744073709551614.0`, math.MaxInt64, true},
	} {
		ok, err := eval(t, tc.src, &Input{Event: "pre_tool_call", Tool: "terminal", Args: map[string]any{"t": tc.v}})
		if err != nil || ok != tc.want {
			t.Errorf("%s with t=%v: %v, %v; want %v", tc.src, tc.v, ok, err, tc.want)
		}
	}
	// In range, integers stay integers.
	ok, err := eval(t, `args.t * 3 - 1 == 8 && type(args.t * 3) == "int" && type(args.t + 1) == "int" && type(args.t - 1) == "int"`, &Input{Args: map[string]any{"t": 3}})
	if err != nil || !ok {
		t.Errorf("in range: %v, %v", ok, err)
	}
}

// sum() added with expr's wrapping `+`: `sum(args.sizes) > 1000000` was
// false for sizes [2^63-1, 1]. It adds as #add does.
func TestSumDoesNotWrap(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{`sum(args.sizes) > 1000000`, true},
		{`sum(args.sizes, # * 2) > 1000000`, true},
		{`sum(args.files, #.size) > 1000000`, true},
		{`sum(args.small) == 6 && type(sum(args.small)) == "int"`, true},
		{`sum(args.small, # * 1.5) == 9.0`, true},
		{`sum([]) == 0`, true},
	} {
		ok, err := eval(t, tc.src, &Input{Args: map[string]any{
			"sizes": []any{math.MaxInt64, 1},
			"files": []any{map[string]any{"size": math.MaxInt64}, map[string]any{"size": 1}},
			"small": []any{1, 2, 3},
		}})
		if err != nil || ok != tc.want {
			t.Errorf("%s: %v, %v; want %v", tc.src, ok, err, tc.want)
		}
	}
}

// abs() and a unary minus of the call's most negative integer were that
// integer again (-(-2^63) wraps): `abs(args.n) > 1000` was false for it.
func TestNegationDoesNotWrap(t *testing.T) {
	for _, src := range []string{`abs(args.n) > 1000`, `-args.n > 1000`, `abs(args.m) == 5 && type(abs(args.m)) == "int"`, `-args.m == 5`, `abs(args.f) == 2.5`} {
		ok, err := eval(t, src, &Input{Args: map[string]any{"n": math.MinInt64, "m": -5, "f": -2.5}})
		if err != nil || !ok {
			t.Errorf("%s: %v, %v; want true", src, ok, err)
		}
	}
}
