package pattern

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Python (Hermes matchers): reading a pattern as Python's re does.

// pyParser is planPython's state: the shared planState and what only
// Python's grammar needs.
type pyParser struct {
	planState
	stack []pyGroup // the groups open here
	// verbose: (?x) is on here. ignoreCase: (?i) is on somewhere. ascii:
	// the global (?a) flag. nonASCII: a literal beyond ASCII was read.
	// emitted: something other than a leading global flag group was read.
	verbose, ignoreCase, ascii, nonASCII, emitted bool
	// The leading global flag groups, rewritten for RE2, and where the
	// rest of the pattern starts.
	fastPrefix string
	fastFrom   int
	groups     int            // capturing groups opened so far
	closed     map[int]bool   // capturing groups closed so far
	names      map[string]int // group names, to their numbers
}

type pyGroup struct {
	start   int
	verbose bool // (?x) outside the group, restored at its end
	capture int  // group number, 0 when not capturing
}

// planPython reads a Python 3.11+ re pattern. It rejects what Python's re
// rejects and regexp2 would accept (unknown escapes such as \p, \z, \Q;
// (?<name>…); global flags after the start; the U and L flags), and
// rewrites what regexp2 spells differently: (?P<n>…) → (?<n>…), (?P=n) →
// \k<n>, \Z → \z, {,n} → {0,n}, possessive → atomic, (?x) whitespace and
// comments removed, \U0001F600 → the character, [ inside a class escaped
// (no .NET subtraction). Not checked: Python's fixed-width look-behind
// requirement ((?<=a+) compiles here), \N{name} (refused as unsupported).
func planPython(p string) (rxPlan, error) {
	s := &pyParser{
		planState: planState{p: p, atomStart: -1, plan: rxPlan{fast: true, exact: true}, pyMode: true},
		closed:    map[int]bool{},
		names:     map[string]int{},
	}
	for s.i < len(p) {
		c := p[s.i]
		if s.verbose && strings.IndexByte(" \t\n\r\v\f", c) >= 0 {
			s.i++
			continue
		}
		if s.verbose && c == '#' {
			for s.i < len(p) && p[s.i] != '\n' {
				s.i++
			}
			continue
		}
		if c != '(' {
			s.emitted = true
		}
		var err error
		switch c {
		case '\\':
			err = pyEscape(&s.planState, s.groups, s.closed)
		case '[':
			err = pyClass(&s.planState)
		case '(':
			err = s.open()
		case ')':
			if len(s.stack) == 0 {
				return rxPlan{}, rxError("unbalanced parenthesis")
			}
			g := s.stack[len(s.stack)-1]
			s.stack = s.stack[:len(s.stack)-1]
			s.verbose = g.verbose
			if g.capture > 0 {
				s.closed[g.capture] = true
			}
			s.i++
			s.emit(")")
			s.atomStart, s.lastQuant = g.start, false
		case '|':
			s.i++
			s.emit("|")
			s.atomStart, s.lastQuant = -1, false
		case '*', '+', '?':
			s.i++
			err = s.quantify(string(c), "nothing to repeat")
		case '{':
			err = s.braces()
		case '^':
			s.i++
			s.assert("^")
		case '$':
			// Python's $ also matches before a final \n; so does regexp2's.
			s.i++
			s.notExact()
			s.assert("$")
		case '.':
			s.i++
			s.atom(".")
		default:
			r, size := utf8.DecodeRuneInString(p[s.i:])
			s.i += size
			if r >= utf8.RuneSelf {
				s.nonASCII = true
			}
			s.atom(runeLiteral(r))
		}
		if err != nil {
			return rxPlan{}, err
		}
	}
	return s.finish()
}

// finish checks the end of the pattern and settles the plan.
func (s *pyParser) finish() (rxPlan, error) {
	if len(s.stack) > 0 {
		return rxPlan{}, rxError("missing ), unterminated subpattern")
	}
	if s.ignoreCase {
		// Python folds case by Unicode rules; RE2 too, but not identically
		// beyond ASCII.
		s.notExact()
		if s.nonASCII {
			s.slow()
		}
	}
	if s.fastFrom > 0 {
		s.plan.fastExpr = `^(?:` + s.fastPrefix + s.p[s.fastFrom:] + `)$`
	}
	if s.ascii {
		if !s.plan.fast {
			return rxPlan{}, rxError("the (?a) ASCII flag together with constructs RE2 lacks is not supported here")
		}
		// RE2's classes are ASCII, as (?a) asks.
		s.plan.exact = !s.ignoreCase
		s.plan.onlyFast = true
	}
	s.plan.slowExpr = string(s.out)
	return s.plan, nil
}

// braces handles a "{": a counted quantifier, or literal text.
func (s *pyParser) braces() error {
	p := s.p
	lo, hi, comma, end, ok := quantBraces(p, s.i, true)
	if !ok {
		s.i++
		s.slow()
		s.atom(`\{`)
		return nil
	}
	minN, maxN := 0, -1
	var err error
	if lo != "" {
		if minN, err = strconv.Atoi(lo); err != nil || minN > 4294967294 {
			return rxError("the repetition number is too large")
		}
	} else {
		s.slow()
	}
	if hi != "" {
		if maxN, err = strconv.Atoi(hi); err != nil || maxN > 4294967294 {
			return rxError("the repetition number is too large")
		}
		if maxN < minN {
			return rxError("minN repeat greater than maxN repeat")
		}
	}
	if minN > 1000 || maxN > 1000 || leadingZero(lo) || leadingZero(hi) {
		s.slow() // RE2's limit, RE2's syntax
	}
	q := "{" + strconv.Itoa(minN)
	switch {
	case !comma:
		q += "}"
	case maxN < 0:
		q += ",}"
	default:
		q += "," + strconv.Itoa(maxN) + "}"
	}
	s.i = end
	return s.quantify(q, "nothing to repeat")
}
