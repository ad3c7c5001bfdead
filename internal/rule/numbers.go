package rule

import (
	"fmt"
	"strconv"

	"github.com/expr-lang/expr/builtin"
)

// toInt is expr's int(), but a number past an integer's range (or no
// number: NaN, an infinity) is an evaluation error, as int() of a string
// that is no integer is. Go's conversion of such a float gives a value of
// the platform's choosing (int(1e20) is math.MinInt64 on amd64): a
// guard's `int(args.timeout) > 600000` read a payload's timeout of 1e20
// as below its limit and let the call through.
func toInt(params ...any) (any, error) {
	var f float64
	switch x := params[0].(type) {
	case float64:
		f = x
	case float32:
		f = float64(x)
	default:
		// Its panic (a string that is no integer, a value of no number
		// type) is the evaluation's error, as it was.
		return builtin.Int(x), nil
	}
	// -2^63 is an int, 2^63 is not; NaN fails both comparisons.
	if !(f >= -(1<<63) && f < 1<<63) {
		return nil, fmt.Errorf("invalid operation: int(%s): past the range of an integer", strconv.FormatFloat(f, 'g', -1, 64))
	}
	return int(f), nil
}
