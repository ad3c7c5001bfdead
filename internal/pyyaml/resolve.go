package pyyaml

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Plain scalars as YAML 1.1 (PyYAML) resolves them.
//
// yaml.v3 tags a plain scalar by YAML 1.2's rules, with Go's number
// syntax: 0o10, 0X1E, 0B11 and 1e3 are numbers to it and 1:30 is text,
// where PyYAML reads the first four as text (Python's int() refuses them,
// so Hermes warns and uses its default) and 1:30 as the sexagesimal 90.
// Resolve retags the parsed document once, so every reader of it (and
// Int, Bool, Type) sees the value Hermes sees.

// The implicit resolvers of PyYAML's Resolver for YAML 1.1, written from
// the YAML 1.1 type definitions as PyYAML applies them (an exponent needs
// its sign and a float its dot; 0b and 0x only in lower case; octal is a
// leading 0; base 60 with ":"), tried in PyYAML's order: bool, float,
// int, merge, null, timestamp. Compiled at the first scalar that may be a
// number (numberStart), not at every start of the binary.
var yaml11 = sync.OnceValue(func() (r struct{ float, int, timestamp *regexp.Regexp }) {
	r.float = regexp.MustCompile(`^(?:[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+][0-9]+)?` +
		`|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?` +
		`|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*` +
		`|[-+]?\.(?:inf|Inf|INF)` +
		`|\.(?:nan|NaN|NAN))$`)
	r.int = regexp.MustCompile(`^(?:[-+]?0b[0-1_]+` +
		`|[-+]?0[0-7_]+` +
		`|[-+]?(?:0|[1-9][0-9_]*)` +
		`|[-+]?0x[0-9a-fA-F_]+` +
		`|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$`)
	r.timestamp = regexp.MustCompile(`^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}` +
		`|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?` +
		`(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$`)
	return r
})

// numberStart: s starts as a float, an int or a timestamp may (PyYAML
// tries those resolvers only for these first characters); most scalars of
// a config (commands, matchers, messages) do not, and need no pattern.
func numberStart(s string) bool {
	return s != "" && strings.IndexByte("-+.0123456789", s[0]) >= 0
}

// plainDecimal: s is 0 or digits not starting with 0, the commonest int
// of a config (a timeout), which no float or timestamp pattern matches.
func plainDecimal(s string) bool {
	if s == "0" {
		return true
	}
	if s[0] == '0' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ImplicitTag is the tag PyYAML gives a plain (unquoted, untagged) scalar.
// The bool, merge and null words start with none of numberStart's
// characters, so deciding them first keeps PyYAML's order.
func ImplicitTag(s string) string {
	switch {
	case isBoolWord(s):
		return "!!bool"
	case s == "<<":
		return "!!merge"
	case s == "" || s == "~" || s == "null" || s == "Null" || s == "NULL":
		return "!!null"
	case !numberStart(s):
		return "!!str"
	case plainDecimal(s):
		return "!!int" // timeout: 30, without compiling a pattern
	}
	r := yaml11()
	switch {
	case r.float.MatchString(s):
		return "!!float"
	case r.int.MatchString(s):
		return "!!int"
	case r.timestamp.MatchString(s):
		return "!!timestamp"
	}
	return "!!str"
}

func isBoolWord(s string) bool {
	_, ok := yaml11Bools[s]
	return ok
}

// Resolve gives every plain scalar of the document under root the tag
// PyYAML gives it, but YAML 1.1's yes/no/on/off: those keep yaml.v3's
// !!str, as the readers of the keys Hermes reads take them for booleans
// there (IsYAML11Bool, Bool), and the keys only hermes-hooks reads have
// always read them as text (a rule's message: no), which a config that
// loads today must keep. Quoted and explicitly tagged scalars keep their
// tag. Aliases are not followed (their anchors are in the tree), so each
// node is visited once; the walk keeps its own stack, as deep documents
// may be.
func Resolve(root *yaml.Node) {
	if root == nil {
		return
	}
	stack := []*yaml.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch n.Kind {
		case yaml.ScalarNode:
			if n.Style != 0 {
				break
			}
			if t := ImplicitTag(n.Value); t != "!!bool" {
				n.Tag = t
			}
		case yaml.DocumentNode, yaml.SequenceNode, yaml.MappingNode:
			stack = append(stack, n.Content...)
		}
	}
}

// pyInt is PyYAML's construction of an int scalar's text: underscores
// dropped, a sign, then 0b binary, 0x hex, a leading 0 octal, a:b:c base
// 60, else decimal; clamped to the int32 range (a timeout, a count).
func pyInt(s string) (int, bool) {
	s = strings.ReplaceAll(s, "_", "")
	neg := false
	if s != "" && (s[0] == '-' || s[0] == '+') {
		neg = s[0] == '-'
		s = s[1:]
	}
	var v int64
	var err error
	switch {
	case s == "":
		return 0, false
	case strings.HasPrefix(s, "0b"):
		v, err = strconv.ParseInt(s[2:], 2, 64)
	case strings.HasPrefix(s, "0x"):
		v, err = strconv.ParseInt(s[2:], 16, 64)
	case s != "0" && s[0] == '0':
		v, err = strconv.ParseInt(s, 8, 64)
	case strings.Contains(s, ":"):
		f, ok := sexagesimal(s, func(p string) (float64, error) {
			i, err := strconv.ParseInt(p, 10, 64)
			return float64(i), err
		})
		if !ok {
			return 0, false
		}
		return clampFloat(f, neg), true
	default:
		v, err = strconv.ParseInt(s, 10, 64)
	}
	if err != nil {
		if isRangeErr(err) {
			return clampFloat(math.Inf(1), neg), true
		}
		return 0, false
	}
	if neg {
		v = -v
	}
	return clampInt(v), true
}

// Number is the value PyYAML constructs from an int or float scalar (a
// JSON number's node too), as a float64; ok is false for any other node.
func Number(n *yaml.Node) (float64, bool) {
	if n.Kind != yaml.ScalarNode {
		return 0, false
	}
	switch n.Tag {
	case "!!int":
		v, ok := pyInt(n.Value)
		return float64(v), ok
	case "!!float":
		return pyFloat(n.Value)
	}
	return 0, false
}

// pyFloat is PyYAML's construction of a float scalar's text.
func pyFloat(s string) (float64, bool) {
	s = strings.ToLower(strings.ReplaceAll(s, "_", ""))
	sign := 1.0
	if s != "" && (s[0] == '-' || s[0] == '+') {
		if s[0] == '-' {
			sign = -1
		}
		s = s[1:]
	}
	switch {
	case s == ".inf":
		return sign * math.Inf(1), true
	case s == ".nan":
		return math.NaN(), true
	case strings.Contains(s, ":"):
		f, ok := sexagesimal(s, func(p string) (float64, error) { return strconv.ParseFloat(p, 64) })
		return sign * f, ok
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRangeErr(err) {
		return 0, false
	}
	return sign * f, true
}

func isRangeErr(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// sexagesimal reads a:b:c as ((a·60)+b)·60+c, each part by part.
func sexagesimal(s string, part func(string) (float64, error)) (float64, bool) {
	v := 0.0
	for _, p := range strings.Split(s, ":") {
		x, err := part(p)
		if err != nil {
			return 0, false
		}
		v = v*60 + x
	}
	return v, true
}

// clampFloat is int() of f (already non-negative; neg: its sign) in the
// int32 range.
func clampFloat(f float64, neg bool) int {
	if neg {
		f = -f
	}
	return int(math.Max(math.Min(math.Trunc(f), math.MaxInt32), math.MinInt32))
}
