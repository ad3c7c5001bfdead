package pyjson

import (
	"math"
	"strconv"
	"strings"
)

// FloatRepr is Python's repr() of a float (1.0, 0.001, 1e+16, 1e-05); NaN
// and the infinities, which JSON cannot hold, are "null".
func FloatRepr(f float64) string { return string(appendFloat(nil, f, Python)) }

// Seconds formats a duration in seconds as Hermes prints one: rounded to
// three decimals, in float repr ("0.012", "1.0").
func Seconds(sec float64) string { return FloatRepr(math.Round(sec*1000) / 1000) }

// pyNumber rewrites a JSON number the way Python's json module round-trips
// it: integers stay exact (only "-0" changes, to "0"), anything with a
// fraction or exponent becomes a float and is written as repr() writes it.
// A float beyond float64's range keeps its text; Python would write
// Infinity, which is not JSON and which nothing could read back.
func pyNumber(s string) string {
	if !strings.ContainsAny(s, ".eE") {
		if s == "-0" {
			return "0"
		}
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return s
	}
	return FloatRepr(f)
}
