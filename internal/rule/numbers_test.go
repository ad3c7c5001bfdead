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
