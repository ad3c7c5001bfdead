package pattern

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Planning a matcher: which engine runs it (RE2 where it provably means
// what the dialect means, regexp2 elsewhere) and what regexp2 is given.

// rxPlan is the result of reading a pattern in its dialect's grammar.
type rxPlan struct {
	// slowExpr is the pattern rewritten for regexp2 (default mode for
	// Python, ECMAScript mode for JavaScript) so that it means what the
	// dialect means.
	slowExpr string
	// fast: RE2, given the original pattern, matches exactly as the
	// dialect does on plain input. The check is syntactic and
	// conservative: only literals, ., ^, $, |, (…), (?:…), named groups,
	// greedy and lazy quantifiers (counts up to RE2's 1000), simple
	// classes, \d \w \s \b and escaped punctuation qualify.
	fast bool
	// exact: ... and on every input (no construct whose meaning depends on
	// Unicode, \r, \v or \n is used).
	exact bool
	// fastExpr, when set, replaces the original pattern for RE2 (Python's
	// (?a) and (?u) flags, which RE2 does not know, are dropped from it).
	fastExpr string
	// onlyFast: slowExpr does not carry the pattern's meaning (the (?a)
	// flag); only RE2 may answer.
	onlyFast bool
}

// rxError is a pattern the dialect's own engine would reject, or one that
// cannot be evaluated here; its text says which.
type rxError string

func (e rxError) Error() string { return string(e) }

// planState is shared by the two planners.
type planState struct {
	p         string
	i         int
	out       []byte
	plan      rxPlan
	atomStart int  // output offset of the last atom a quantifier may apply to, or -1
	lastQuant bool // the previous token was a quantifier
	pyMode    bool // Python: possessive quantifiers exist (a*+ is (?>a*))
}

func (s *planState) slow()     { s.plan.fast = false }
func (s *planState) notExact() { s.plan.exact = false }
func (s *planState) emit(x string) {
	s.out = append(s.out, x...)
}

// atom emits x as a quantifiable atom.
func (s *planState) atom(x string) {
	s.atomStart = len(s.out)
	s.lastQuant = false
	s.emit(x)
}

// assert emits an anchor, which takes no quantifier.
func (s *planState) assert(x string) {
	s.atomStart = -1
	s.lastQuant = false
	s.emit(x)
}

// quantify emits quantifier q on the last atom; possessive wraps it in an
// atomic group (Python 3.11's a*+ is (?>a*)).
func (s *planState) quantify(q string, nothing string) error {
	if s.atomStart < 0 {
		if s.lastQuant {
			return rxError("multiple repeat")
		}
		return rxError(nothing)
	}
	lazy, possessive := false, false
	if s.i < len(s.p) && s.p[s.i] == '?' {
		lazy = true
		s.i++
	} else if s.i < len(s.p) && s.p[s.i] == '+' && s.pyMode {
		possessive = true
		s.i++
	}
	switch {
	case possessive:
		s.slow()
		body := string(s.out[s.atomStart:])
		s.out = append(s.out[:s.atomStart], "(?>"+body+q+")"...)
	case lazy:
		s.emit(q + "?")
	default:
		s.emit(q)
	}
	s.atomStart, s.lastQuant = -1, true
	return nil
}

func hexDigits(s string, n int) bool {
	if len(s) < n {
		return false
	}
	for i := 0; i < n; i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// escapePunct writes an escaped ASCII punctuation or space character so
// that regexp2 reads it as itself ("\_" is an error there, "\." is not).
func escapePunct(c byte) string { return runeLiteral(rune(c)) }

// runeLiteral writes rune r so that regexp2 reads it as itself.
func runeLiteral(r rune) string {
	switch {
	case r >= utf8.RuneSelf:
		return string(r)
	case strings.ContainsRune(`\^$.|?*+()[]{}-/#`, r):
		return `\` + string(r)
	case r >= ' ' && r <= '~':
		return string(r)
	}
	return `\x` + strconv.FormatUint(uint64(r)|0x100, 16)[1:]
}

// leadingZero: RE2 does not read {01} as a count (it is literal text
// there), JavaScript and Python do.
func leadingZero(n string) bool { return len(n) > 1 && n[0] == '0' }

// quantBraces reads {m}, {m,}, {m,n} (and, when allowEmptyMin, Python's
// {,n} and {,}) at p[i]; ok is false when the braces are literal text.
func quantBraces(p string, i int, allowEmptyMin bool) (lo, hi string, comma bool, end int, ok bool) {
	j := i + 1
	for j < len(p) && isDigit(p[j]) {
		j++
	}
	lo = p[i+1 : j]
	if j < len(p) && p[j] == ',' {
		comma = true
		k := j + 1
		for k < len(p) && isDigit(p[k]) {
			k++
		}
		hi = p[j+1 : k]
		j = k
	} else {
		hi = lo
	}
	if j >= len(p) || p[j] != '}' || (lo == "" && (!allowEmptyMin || !comma)) {
		return "", "", false, 0, false
	}
	return lo, hi, comma, j + 1, true
}
