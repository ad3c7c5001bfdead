package dispatcher

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dlclark/regexp2"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

type matchKind uint8

const (
	matchAll     matchKind = iota // no matcher: every firing
	matchLiteral                  // Hermes: exact tool name
	matchFull                     // Hermes: full-match regex
	matchNames                    // Claude: exact name list
	matchSearch                   // Claude: unanchored regex
	matchNever                    // Claude: invalid regex
)

// matcher is a compiled matcher; the dialect decides its rule.
//
// A regex matcher holds up to two engines. re is Go's RE2 (linear time, no
// allocation); slow is a backtracking engine (regexp2) set to the dialect's
// own regex language, for what RE2 cannot do or does differently. When
// both are set, re answers for plain input (printable ASCII, which every
// tool name is) and slow for the rest; see planPython and planJS for when
// RE2 is trusted.
type matcher struct {
	kind    matchKind
	literal string
	names   []string
	re      *regexp.Regexp
	slow    *regexp2.Regexp
}

// regexTimeout bounds one backtracking match. A pattern such as (a+)+\1b
// can take exponential time; Python and JavaScript would hang, a dispatch
// must not. A match that runs out of time counts as no match for Claude
// and falls back to literal equality for Hermes (the rule for a pattern
// that does not compile) — silently, as the matcher has no warning channel
// at match time; `hermes-hooks test` shows which hooks ran.
var regexTimeout = 100 * time.Millisecond

// compileMatcher builds the entry's matcher, reporting invalid patterns
// through warn.
//
// Hermes rule: the stripped pattern must match the whole tool name (Python
// re.fullmatch); a pattern Python's re would reject matches only itself,
// literally. Python syntax RE2 lacks (look-arounds, back-references,
// (?P=name), atomic groups, possessive quantifiers, (?x), {,n}, \Z …) runs
// on the backtracking engine, so it means what it means in Python.
//
// Claude rule: "", "*" and ".*" match everything; a pattern of only letters,
// digits, "_", "|", ",", "-" and spaces is a list of exact names (split on
// "|" and ","); anything else is an unanchored JavaScript regex (new
// RegExp(matcher), no flags), and one JavaScript rejects — (?i)bash,
// (?P<n>…) — never matches.
func compileMatcher(e *Entry, warn func(string)) matcher {
	m := e.Matcher
	if m == "" {
		return matcher{kind: matchAll}
	}
	if e.Dialect == protocol.Claude {
		if m == "*" || m == ".*" {
			return matcher{kind: matchAll}
		}
		if isNameList(m) {
			var names []string
			for _, part := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
				if p := strings.TrimSpace(part); p != "" {
					names = append(names, p)
				}
			}
			return matcher{kind: matchNames, names: names}
		}
		re, slow, err := compileRegex(m, m, planJS, regexp2.ECMAScript, func(s string) string { return s })
		if err != nil {
			warn("'" + m + "' is not a valid JavaScript regular expression (" + err.Error() + "); this hook will never match, as in Claude Code")
			return matcher{kind: matchNever}
		}
		return matcher{kind: matchSearch, re: re, slow: slow}
	}
	if regexp.QuoteMeta(m) == m {
		return matcher{kind: matchLiteral, literal: m}
	}
	re, slow, err := compileRegex(m, `^(?:`+m+`)$`, planPython, regexp2.None, func(s string) string { return `\A(?:` + s + `)\z` })
	if err != nil {
		warn("shell hook matcher '" + m + "' is invalid (" + err.Error() + ") — treating as literal equality")
		return matcher{kind: matchLiteral, literal: m}
	}
	return matcher{kind: matchFull, literal: m, re: re, slow: slow}
}

// compileRegex plans pattern for its dialect and compiles the engines the
// plan needs: RE2 on re2Expr (the pattern, anchored as the dialect wants)
// when RE2 means the same, regexp2 on the translated pattern otherwise.
func compileRegex(pattern, re2Expr string, plan func(string) (rxPlan, error), opts regexp2.RegexOptions, anchor func(string) string) (*regexp.Regexp, *regexp2.Regexp, error) {
	p, err := plan(pattern)
	if err != nil {
		return nil, nil, err
	}
	var re *regexp.Regexp
	if p.fast {
		if p.fastExpr != "" {
			re2Expr = p.fastExpr
		}
		re, _ = regexp.Compile(re2Expr) // nil: RE2 refuses it, the slow engine decides
	}
	if re != nil && p.exact {
		return re, nil, nil
	}
	if p.onlyFast {
		if re == nil {
			return nil, nil, rxError("the (?a) ASCII flag together with constructs RE2 lacks is not supported here")
		}
		return re, nil, nil
	}
	slow, err := regexp2.Compile(anchor(p.slowExpr), opts)
	if err != nil {
		if re != nil {
			// RE2 agrees on plain input and the translation failed: keep
			// RE2 for every input rather than drop a valid pattern.
			return re, nil, nil
		}
		msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
		if i := strings.LastIndex(msg, " in `"); i > 0 {
			msg = msg[:i] // the translated pattern would only confuse
		}
		return nil, nil, rxError(msg)
	}
	slow.MatchTimeout = regexTimeout
	return re, slow, nil
}

func isNameList(m string) bool {
	for _, r := range m {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case r == '_', r == '|', r == ',', r == '-', r == ' ':
		default:
			return false
		}
	}
	return true
}

func (m *matcher) matches(e *Entry, fields map[string]any, tools *protocol.ToolTable) bool {
	if m.kind == matchAll {
		return true
	}
	if e.Dialect == protocol.Claude {
		q, ok := protocol.ClaudeMatchQuery(e.Event, fields, tools)
		if !ok {
			return true
		}
		candidates := []string{q}
		if e.Event.ClaudeMatchOn == "tool_name" {
			candidates = protocol.ClaudeToolNames(q)
		}
		switch m.kind {
		case matchNames:
			for _, c := range candidates {
				for _, n := range m.names {
					if c == n {
						return true
					}
				}
			}
		case matchSearch:
			for _, c := range candidates {
				// A timed-out search counts as no match.
				if ok, done := m.regexMatch(c); ok && done {
					return true
				}
			}
		}
		return false
	}
	// Hermes: compared against the Hermes tool name; none means no match.
	s, ok := fields["tool_name"].(string)
	if !ok {
		return false
	}
	s = tools.Hermes(s)
	if m.kind == matchLiteral {
		return s == m.literal
	}
	matched, done := m.regexMatch(s)
	if !done {
		return s == m.literal // timed out: the literal fallback
	}
	return matched
}

// regexMatch runs the engine that is exact for s; done is false when the
// backtracking engine ran out of time.
func (m *matcher) regexMatch(s string) (matched, done bool) {
	if m.re != nil && (m.slow == nil || isPlain(s)) {
		return m.re.MatchString(s), true
	}
	ok, err := matchRunes(m.slow, s)
	return ok, err == nil
}

// isPlain reports printable ASCII, the input on which the RE2 fast path of
// a planned pattern is exact.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// runeBufs recycles the []rune regexp2 matches on: its MatchString
// allocates one per call, and a firing that matches no hook must not
// allocate. regexp2 drops its reference to the slice when the match ends.
// (A free list rather than a sync.Pool, which the race detector makes drop
// items at random.)
var runeBufs struct {
	sync.Mutex
	free [][]rune
}

func matchRunes(re *regexp2.Regexp, s string) (bool, error) {
	var b []rune
	runeBufs.Lock()
	if n := len(runeBufs.free); n > 0 {
		b = runeBufs.free[n-1][:0]
		runeBufs.free = runeBufs.free[:n-1]
	}
	runeBufs.Unlock()
	for _, r := range s {
		b = append(b, r)
	}
	ok, err := re.MatchRunes(b)
	if cap(b) <= 1024 {
		runeBufs.Lock()
		if len(runeBufs.free) < 64 {
			runeBufs.free = append(runeBufs.free, b[:0])
		}
		runeBufs.Unlock()
	}
	return ok, err
}

// ---------------------------------------------------------------------------
// Planning: which engine, and what the backtracking engine is given.

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

// ---------------------------------------------------------------------------
// Python (Hermes)

// planPython reads a Python 3.11+ re pattern. It rejects what Python's re
// rejects and regexp2 would accept (unknown escapes such as \p, \z, \Q;
// (?<name>…); global flags after the start; the U and L flags), and
// rewrites what regexp2 spells differently: (?P<n>…) → (?<n>…), (?P=n) →
// \k<n>, \Z → \z, {,n} → {0,n}, possessive → atomic, (?x) whitespace and
// comments removed, \U0001F600 → the character, [ inside a class escaped
// (no .NET subtraction). Not checked: Python's fixed-width look-behind
// requirement ((?<=a+) compiles here), \N{name} (refused as unsupported).
func planPython(p string) (rxPlan, error) {
	s := &planState{p: p, atomStart: -1, plan: rxPlan{fast: true, exact: true}, pyMode: true}
	type group struct {
		start   int
		verbose bool
		capture int // group number, 0 when not capturing
	}
	var stack []group
	verbose, ignoreCase, ascii, nonASCII, emitted := false, false, false, false, false
	// The leading global flag groups, rewritten for RE2, and where the
	// rest of the pattern starts.
	fastPrefix, fastFrom := "", 0
	groups := 0
	closed := map[int]bool{}
	names := map[string]int{}
	for s.i < len(p) {
		c := p[s.i]
		if verbose && strings.IndexByte(" \t\n\r\v\f", c) >= 0 {
			s.i++
			continue
		}
		if verbose && c == '#' {
			for s.i < len(p) && p[s.i] != '\n' {
				s.i++
			}
			continue
		}
		if c != '(' {
			emitted = true
		}
		switch c {
		case '\\':
			if err := pyEscape(s, groups, closed); err != nil {
				return rxPlan{}, err
			}
		case '[':
			if err := pyClass(s); err != nil {
				return rxPlan{}, err
			}
		case '(':
			start := len(s.out)
			if s.i+1 < len(p) && p[s.i+1] == '?' {
				if s.i+2 >= len(p) {
					return rxPlan{}, rxError("unexpected end of pattern")
				}
				e := p[s.i+2]
				switch {
				case e == ':':
					s.i += 3
					stack = append(stack, group{start: start, verbose: verbose})
					s.emit("(?:")
				case e == 'P' && s.i+3 < len(p) && p[s.i+3] == '<':
					end := strings.IndexByte(p[s.i+4:], '>')
					if end < 0 {
						return rxPlan{}, rxError("missing >, unterminated name")
					}
					name := p[s.i+4 : s.i+4+end]
					if !isIdentifier(name) {
						return rxPlan{}, rxError("bad character in group name '" + name + "'")
					}
					if _, dup := names[name]; dup {
						return rxPlan{}, rxError("redefinition of group name '" + name + "'")
					}
					groups++
					names[name] = groups
					s.i += 5 + end
					stack = append(stack, group{start: start, verbose: verbose, capture: groups})
					s.emit("(?<" + name + ">")
				case e == 'P' && s.i+3 < len(p) && p[s.i+3] == '=':
					end := strings.IndexByte(p[s.i+4:], ')')
					if end < 0 {
						return rxPlan{}, rxError("missing ), unterminated name")
					}
					name := p[s.i+4 : s.i+4+end]
					n, ok := names[name]
					if !ok {
						return rxPlan{}, rxError("unknown group name '" + name + "'")
					}
					if !closed[n] {
						return rxPlan{}, rxError("cannot refer to an open group")
					}
					s.i += 5 + end
					s.slow()
					s.atom(`\k<` + name + `>`)
					continue
				case e == 'P':
					return rxPlan{}, rxError("unknown extension ?P")
				case e == '=' || e == '!':
					s.i += 3
					s.slow()
					stack = append(stack, group{start: start, verbose: verbose})
					s.emit("(?" + string(e))
				case e == '<' && s.i+3 < len(p) && (p[s.i+3] == '=' || p[s.i+3] == '!'):
					s.i += 4
					s.slow()
					stack = append(stack, group{start: start, verbose: verbose})
					s.emit("(?<" + string(p[s.i-1]))
				case e == '<':
					return rxPlan{}, rxError("unknown extension ?<" + string(p[min(s.i+3, len(p)-1)]) + " (Python names groups (?P<name>…))")
				case e == '#':
					end := strings.IndexByte(p[s.i:], ')')
					if end < 0 {
						return rxPlan{}, rxError("missing ), unterminated comment")
					}
					s.i += end + 1
					s.slow()
					continue
				case e == '>':
					s.i += 3
					s.slow()
					stack = append(stack, group{start: start, verbose: verbose})
					s.emit("(?>")
				case e == '(':
					end := strings.IndexByte(p[s.i+3:], ')')
					if end < 0 {
						return rxPlan{}, rxError("missing ), unterminated name")
					}
					cond := p[s.i+3 : s.i+3+end]
					if n, err := strconv.Atoi(cond); err == nil {
						if n < 1 || n > groups {
							return rxPlan{}, rxError("invalid group reference " + cond)
						}
					} else if _, ok := names[cond]; !ok {
						return rxPlan{}, rxError("unknown group name '" + cond + "'")
					}
					s.i += 4 + end
					s.slow()
					stack = append(stack, group{start: start, verbose: verbose})
					s.emit("(?(" + cond + ")")
				case strings.IndexByte("aiLmsux-", e) >= 0:
					add, del, scoped, n, err := pyFlags(p[s.i+2:])
					if err != nil {
						return rxPlan{}, err
					}
					s.i += 2 + n
					if strings.ContainsRune(add, 'a') {
						if scoped {
							return rxPlan{}, rxError("a scoped (?a:…) ASCII flag is not supported here")
						}
						ascii = true
					}
					ims := func(f string) string {
						var b strings.Builder
						for _, r := range f {
							if strings.ContainsRune("ims", r) {
								b.WriteRune(r)
							}
						}
						return b.String()
					}
					if !scoped {
						if len(stack) > 0 || emitted {
							return rxPlan{}, rxError("global flags not at the start of the expression")
						}
						if f := ims(add) + strings.Map(func(r rune) rune {
							if r == 'x' {
								return r
							}
							return -1
						}, add); f != "" {
							fastPrefix += "(?" + f + ")"
						}
						fastFrom = s.i
						if strings.ContainsRune(add, 'i') {
							ignoreCase = true
						}
						if strings.ContainsRune(add, 'x') {
							verbose = true
							s.slow()
						}
						if f := ims(add); f != "" {
							s.emit("(?" + f + ")")
						}
						continue
					}
					if strings.ContainsRune(add, 'i') {
						ignoreCase = true
					}
					stack = append(stack, group{start: start, verbose: verbose})
					if strings.ContainsRune(add, 'x') {
						verbose = true
						s.slow()
					}
					if strings.ContainsRune(del, 'x') {
						verbose = false
						s.slow()
					}
					x := "(?" + ims(add)
					if d := ims(del); d != "" {
						x += "-" + d
					}
					s.emit(x + ":")
				default:
					return rxPlan{}, rxError("unknown extension ?" + string(e))
				}
			} else {
				s.i++
				groups++
				stack = append(stack, group{start: start, verbose: verbose, capture: groups})
				s.emit("(")
			}
			emitted = true
			s.atomStart, s.lastQuant = -1, false
		case ')':
			if len(stack) == 0 {
				return rxPlan{}, rxError("unbalanced parenthesis")
			}
			g := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			verbose = g.verbose
			if g.capture > 0 {
				closed[g.capture] = true
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
			if err := s.quantify(string(c), "nothing to repeat"); err != nil {
				return rxPlan{}, err
			}
		case '{':
			lo, hi, comma, end, ok := quantBraces(p, s.i, true)
			if !ok {
				s.i++
				s.slow()
				s.atom(`\{`)
				continue
			}
			minN, maxN := 0, -1
			var err error
			if lo != "" {
				if minN, err = strconv.Atoi(lo); err != nil || minN > 4294967294 {
					return rxPlan{}, rxError("the repetition number is too large")
				}
			} else {
				s.slow()
			}
			if hi != "" {
				if maxN, err = strconv.Atoi(hi); err != nil || maxN > 4294967294 {
					return rxPlan{}, rxError("the repetition number is too large")
				}
				if maxN < minN {
					return rxPlan{}, rxError("minN repeat greater than maxN repeat")
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
			if err := s.quantify(q, "nothing to repeat"); err != nil {
				return rxPlan{}, err
			}
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
				nonASCII = true
			}
			s.atom(runeLiteral(r))
		}
	}
	if len(stack) > 0 {
		return rxPlan{}, rxError("missing ), unterminated subpattern")
	}
	if ignoreCase {
		// Python folds case by Unicode rules; RE2 too, but not identically
		// beyond ASCII.
		s.notExact()
		if nonASCII {
			s.slow()
		}
	}
	if fastFrom > 0 {
		s.plan.fastExpr = `^(?:` + fastPrefix + p[fastFrom:] + `)$`
	}
	if ascii {
		if !s.plan.fast {
			return rxPlan{}, rxError("the (?a) ASCII flag together with constructs RE2 lacks is not supported here")
		}
		// RE2's classes are ASCII, as (?a) asks.
		s.plan.exact = !ignoreCase
		s.plan.onlyFast = true
	}
	s.plan.slowExpr = string(s.out)
	return s.plan, nil
}

// pyFlags reads inline flags after "(?": "ims)" (global) or "i-s:"
// (scoped); n is how many bytes were read, including the terminator.
func pyFlags(p string) (add, del string, scoped bool, n int, err error) {
	i := 0
	for i < len(p) && strings.IndexByte("aiLmsux", p[i]) >= 0 {
		i++
	}
	add = p[:i]
	if i < len(p) && p[i] == '-' {
		j := i + 1
		for j < len(p) && strings.IndexByte("aiLmsux", p[j]) >= 0 {
			j++
		}
		del = p[i+1 : j]
		if del == "" {
			return "", "", false, 0, rxError("missing flag")
		}
		if strings.ContainsAny(del, "auL") {
			return "", "", false, 0, rxError("bad inline flags: cannot turn off flags 'a', 'u' and 'L'")
		}
		i = j
	}
	if i >= len(p) {
		return "", "", false, 0, rxError("missing -, : or )")
	}
	switch p[i] {
	case ')':
		if del != "" {
			return "", "", false, 0, rxError("missing :")
		}
	case ':':
		scoped = true
	default:
		return "", "", false, 0, rxError("unknown flag")
	}
	if strings.ContainsRune(add, 'L') {
		return "", "", false, 0, rxError("bad inline flags: cannot use 'L' flag with a str pattern")
	}
	if strings.ContainsRune(add, 'a') && strings.ContainsRune(add, 'u') {
		return "", "", false, 0, rxError("bad inline flags: flags 'a', 'u' and 'L' are incompatible")
	}
	for _, f := range add {
		if strings.ContainsRune(del, f) {
			return "", "", false, 0, rxError("bad inline flags: flag turned on and off")
		}
	}
	return add, del, scoped, i + 1, nil
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

// pyEscape handles a backslash outside a class.
func pyEscape(s *planState, groups int, closed map[int]bool) error {
	p := s.p
	if s.i+1 >= len(p) {
		return rxError("bad escape (end of pattern)")
	}
	d := p[s.i+1]
	switch {
	case d == '0':
		j := s.i + 2
		for j < len(p) && j < s.i+4 && p[j] >= '0' && p[j] <= '7' {
			j++
		}
		v, _ := strconv.ParseUint("0"+p[s.i+2:j], 8, 32)
		s.i = j
		s.slow()
		s.atom(runeLiteral(rune(v)))
	case isDigit(d):
		if s.i+3 < len(p) && d <= '7' && p[s.i+2] >= '0' && p[s.i+2] <= '7' && p[s.i+3] >= '0' && p[s.i+3] <= '7' {
			v, _ := strconv.ParseUint(p[s.i+1:s.i+4], 8, 32)
			if v > 0o377 {
				return rxError("octal escape value \\" + p[s.i+1:s.i+4] + " outside of range 0-0o377")
			}
			s.i += 4
			s.slow()
			s.atom(runeLiteral(rune(v)))
			return nil
		}
		j := s.i + 2
		if j < len(p) && isDigit(p[j]) {
			j++
		}
		n, _ := strconv.Atoi(p[s.i+1 : j])
		if n > groups {
			return rxError("invalid group reference " + strconv.Itoa(n))
		}
		if !closed[n] {
			return rxError("cannot refer to an open group")
		}
		s.i = j
		s.slow()
		s.atom(`(?:\` + strconv.Itoa(n) + `)`)
	case isLetter(d):
		s.i += 2
		switch d {
		case 'a', 'f', 'n', 'r', 't', 'v':
			s.atom(`\` + string(d))
		case 'd', 'D', 'w', 'W', 's', 'S':
			s.notExact() // Unicode classes in Python, ASCII in RE2
			s.atom(`\` + string(d))
		case 'b', 'B':
			s.notExact()
			s.assert(`\` + string(d))
		case 'A':
			s.assert(`\A`)
		case 'Z':
			s.slow()
			s.assert(`\z`)
		case 'x':
			if !hexDigits(p[s.i:], 2) {
				return rxError("incomplete escape \\x")
			}
			s.atom(`\x` + p[s.i:s.i+2])
			s.i += 2
		case 'u', 'U':
			n := 4
			if d == 'U' {
				n = 8
			}
			if !hexDigits(p[s.i:], n) {
				return rxError("incomplete escape \\" + string(d))
			}
			v, _ := strconv.ParseUint(p[s.i:s.i+n], 16, 32)
			if v > unicode.MaxRune {
				return rxError("bad escape \\" + string(d) + p[s.i:s.i+n])
			}
			s.i += n
			s.slow()
			s.atom(runeLiteral(rune(v)))
		case 'N':
			return rxError(`\N{...} named characters are not supported here`)
		default:
			return rxError("bad escape \\" + string(d))
		}
	case d >= utf8.RuneSelf:
		r, size := utf8.DecodeRuneInString(p[s.i+1:])
		s.i += 1 + size
		s.slow()
		s.atom(runeLiteral(r))
	default:
		s.i += 2
		s.atom(escapePunct(d))
	}
	return nil
}

// pyClass handles a character class.
func pyClass(s *planState) error {
	p := s.p
	start := s.i
	var b strings.Builder
	b.WriteByte('[')
	s.i++
	if s.i < len(p) && p[s.i] == '^' {
		b.WriteByte('^')
		s.i++
	}
	first := true
	// item reads one class member: its regexp2 text, and whether it is a
	// set (\d …) that cannot bound a range.
	item := func() (string, bool, error) {
		c := p[s.i]
		switch {
		case c == '\\':
			if s.i+1 >= len(p) {
				return "", false, rxError("unterminated character set")
			}
			d := p[s.i+1]
			s.i += 2
			switch {
			case d >= '0' && d <= '7':
				j := s.i
				for j < len(p) && j < s.i+2 && p[j] >= '0' && p[j] <= '7' {
					j++
				}
				v, _ := strconv.ParseUint(p[s.i-1:j], 8, 32)
				if v > 0o377 {
					return "", false, rxError("octal escape value outside of range 0-0o377")
				}
				s.i = j
				s.slow()
				return runeLiteral(rune(v)), false, nil
			case d == '8' || d == '9':
				return "", false, rxError("bad escape \\" + string(d))
			case d == 'd' || d == 'D' || d == 'w' || d == 'W' || d == 's' || d == 'S':
				s.notExact()
				return `\` + string(d), true, nil
			case d == 'b':
				s.slow()
				return `\b`, false, nil
			case d == 'a' || d == 'f' || d == 'n' || d == 'r' || d == 't' || d == 'v':
				return `\` + string(d), false, nil
			case d == 'x':
				if !hexDigits(p[s.i:], 2) {
					return "", false, rxError("incomplete escape \\x")
				}
				s.i += 2
				return `\x` + p[s.i-2:s.i], false, nil
			case d == 'u' || d == 'U':
				n := 4
				if d == 'U' {
					n = 8
				}
				if !hexDigits(p[s.i:], n) {
					return "", false, rxError("incomplete escape \\" + string(d))
				}
				v, _ := strconv.ParseUint(p[s.i:s.i+n], 16, 32)
				if v > unicode.MaxRune {
					return "", false, rxError("bad escape \\" + string(d))
				}
				s.i += n
				s.slow()
				return runeLiteral(rune(v)), false, nil
			case d == 'N':
				return "", false, rxError(`\N{...} named characters are not supported here`)
			case isLetter(d) || isDigit(d):
				return "", false, rxError("bad escape \\" + string(d))
			case d >= utf8.RuneSelf:
				s.i--
				r, size := utf8.DecodeRuneInString(p[s.i:])
				s.i += size
				s.slow()
				return runeLiteral(r), false, nil
			}
			return escapePunct(d), false, nil
		case c == '[':
			// A literal [ in Python (with a FutureWarning); RE2 reads
			// [:alpha:] and .NET -[…] subtraction, so escape it.
			s.i++
			s.slow()
			return `\[`, false, nil
		case c == '-':
			s.i++
			return `\-`, false, nil
		}
		r, size := utf8.DecodeRuneInString(p[s.i:])
		s.i += size
		if r == '^' {
			return `\^`, false, nil
		}
		return runeLiteral(r), false, nil
	}
	for {
		if s.i >= len(p) {
			return rxError("unterminated character set")
		}
		if p[s.i] == ']' && !first {
			s.i++
			break
		}
		if p[s.i] == ']' {
			// A leading ] is a member.
			s.i++
			s.slow()
			b.WriteString(`\]`)
			first = false
			continue
		}
		isDash := p[s.i] == '-'
		if isDash && !first && s.i+1 < len(p) && p[s.i+1] != ']' {
			s.slow() // a - that is not a range, mid-class
		}
		first = false
		lo, loSet, err := item()
		if err != nil {
			return err
		}
		if !isDash && s.i+1 < len(p) && p[s.i] == '-' && p[s.i+1] != ']' {
			s.i++
			hi, hiSet, err := item()
			if err != nil {
				return err
			}
			if loSet || hiSet {
				return rxError("bad character range " + p[start:s.i])
			}
			b.WriteString(lo + "-" + hi)
			continue
		}
		b.WriteString(lo)
	}
	b.WriteByte(']')
	s.atom(b.String())
	return nil
}

// ---------------------------------------------------------------------------
// JavaScript (Claude)

// planJS reads a JavaScript RegExp source as new RegExp(matcher) does: no
// flags, so not in Unicode mode, with the web-compatibility grammar of
// ECMAScript Annex B. It rejects what JavaScript rejects and regexp2's
// ECMAScript mode would accept — inline flags (?i) and (?i)…, (?P<n>…),
// (?#…), atomic groups, a quantifier on nothing or on an anchor — and
// rewrites what regexp2 reads differently: identity escapes (\p, \A, \z, \e
// … are plain letters in JavaScript), \c without a letter, \x and \u
// without their hex digits, legacy octal escapes, a - next to \d in a
// class, [ inside a class, and group names (renamed g1, g2 … so any
// JavaScript identifier works). The ES2025 scoped modifiers (?i:…) are
// accepted (UNVERIFIED that Claude Code's runtime has them). Not modelled:
// JavaScript's UTF-16 code units for characters outside the BMP.
func planJS(p string) (rxPlan, error) {
	s := &planState{p: p, atomStart: -1, plan: rxPlan{fast: true, exact: true}}
	totalGroups, names, err := jsGroups(p)
	if err != nil {
		return rxPlan{}, err
	}
	type group struct {
		start      int
		lookbehind bool
	}
	var stack []group
	named := 0
	for s.i < len(p) {
		c := p[s.i]
		switch c {
		case '\\':
			if err := jsEscape(s, totalGroups, names); err != nil {
				return rxPlan{}, err
			}
		case '[':
			if err := jsClass(s); err != nil {
				return rxPlan{}, err
			}
		case '(':
			start := len(s.out)
			g := group{start: start}
			rest := p[s.i+1:]
			switch {
			case !strings.HasPrefix(rest, "?"):
				s.i++
				s.emit("(")
			case strings.HasPrefix(rest, "?:"):
				s.i += 3
				s.emit("(?:")
			case strings.HasPrefix(rest, "?="), strings.HasPrefix(rest, "?!"):
				s.i += 3
				s.slow()
				s.emit("(" + rest[:2])
			case strings.HasPrefix(rest, "?<="), strings.HasPrefix(rest, "?<!"):
				s.i += 4
				s.slow()
				g.lookbehind = true
				s.emit("(" + rest[:3])
			case strings.HasPrefix(rest, "?<"):
				end := strings.IndexByte(rest, '>')
				name := rest[2:max(end, 2)]
				if end < 0 || !isJSIdentifier(name) {
					return rxPlan{}, rxError("invalid capture group name")
				}
				named++
				if !isASCIIWord(name) {
					s.slow()
				}
				s.i += 1 + end + 1
				s.emit("(?<g" + strconv.Itoa(named) + ">")
			default:
				n, err := jsModifiers(rest[1:])
				if err != nil {
					return rxPlan{}, err
				}
				s.slow()
				s.emit("(" + rest[:1+n])
				s.i += 1 + 1 + n
			}
			stack = append(stack, g)
			s.atomStart, s.lastQuant = -1, false
		case ')':
			if len(stack) == 0 {
				return rxPlan{}, rxError("unmatched ')'")
			}
			g := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			s.i++
			s.emit(")")
			if g.lookbehind {
				s.atomStart, s.lastQuant = -1, false // a look-behind takes no quantifier
			} else {
				s.atomStart, s.lastQuant = g.start, false
			}
		case '|':
			s.i++
			s.emit("|")
			s.atomStart, s.lastQuant = -1, false
		case '*', '+', '?':
			s.i++
			if err := s.quantify(string(c), "nothing to repeat"); err != nil {
				return rxPlan{}, err
			}
		case '{':
			lo, hi, comma, end, ok := quantBraces(p, s.i, false)
			if !ok {
				s.i++
				s.slow()
				s.atom(`\{`)
				continue
			}
			minN, err1 := strconv.Atoi(lo)
			maxN, err2 := strconv.Atoi(hi)
			if err1 != nil || (hi != "" && err2 != nil) {
				return rxPlan{}, rxError("quantifier too large")
			}
			if hi != "" && maxN < minN {
				return rxPlan{}, rxError("numbers out of order in {} quantifier")
			}
			if minN > 1000 || maxN > 1000 || leadingZero(lo) || leadingZero(hi) {
				s.slow()
			}
			q := "{" + lo
			if comma {
				q += "," + hi
			}
			s.i = end
			if err := s.quantify(q+"}", "nothing to repeat"); err != nil {
				return rxPlan{}, err
			}
		case '}', ']':
			s.i++
			s.atom(`\` + string(c))
		case '^', '$':
			s.i++
			s.assert(string(c))
		case '.':
			// JavaScript's . also stops at \r, \u2028 and \u2029; RE2's
			// only at \n.
			s.i++
			s.notExact()
			s.atom(".")
		default:
			r, size := utf8.DecodeRuneInString(p[s.i:])
			s.i += size
			s.atom(runeLiteral(r))
		}
	}
	if len(stack) > 0 {
		return rxPlan{}, rxError("unterminated group")
	}
	s.plan.slowExpr = string(s.out)
	return s.plan, nil
}

// jsGroups counts the capturing groups and collects the group names (in
// order), skipping escapes and classes: JavaScript resolves \N and \k<n>
// against the whole pattern.
func jsGroups(p string) (int, map[string]int, error) {
	n := 0
	names := map[string]int{}
	named := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\\':
			i++
		case '[':
			for i++; i < len(p) && p[i] != ']'; i++ {
				if p[i] == '\\' {
					i++
				}
			}
		case '(':
			rest := p[i+1:]
			switch {
			case !strings.HasPrefix(rest, "?"):
				n++
			case strings.HasPrefix(rest, "?<") && !strings.HasPrefix(rest, "?<=") && !strings.HasPrefix(rest, "?<!"):
				n++
				named++
				if end := strings.IndexByte(rest, '>'); end > 2 {
					name := rest[2:end]
					if _, dup := names[name]; dup {
						// ES2025 allows a duplicate only in another
						// alternative; not modelled.
						return 0, nil, rxError("duplicate capture group name")
					}
					names[name] = named
				}
			}
		}
	}
	return n, names, nil
}

// jsModifiers reads ES2025 "ims-ims:" after "(?"; n counts through the ":".
func jsModifiers(p string) (int, error) {
	i := 0
	seen := map[byte]bool{}
	count := 0
	for i < len(p) && (p[i] == 'i' || p[i] == 'm' || p[i] == 's' || p[i] == '-') {
		if p[i] == '-' {
			if seen['-'] {
				return 0, rxError("invalid group")
			}
			seen['-'] = true
			i++
			continue
		}
		if seen[p[i]] {
			return 0, rxError("repeated flag in modifiers")
		}
		seen[p[i]] = true
		count++
		i++
	}
	if i >= len(p) || p[i] != ':' || count == 0 {
		return 0, rxError("invalid group")
	}
	return i + 1, nil
}

func isJSIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || r == '$' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}

func isASCIIWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if !(isLetter(s[i]) || isDigit(s[i]) || s[i] == '_') {
			return false
		}
	}
	return true
}

// jsEscape handles a backslash outside a class.
func jsEscape(s *planState, totalGroups int, names map[string]int) error {
	p := s.p
	if s.i+1 >= len(p) {
		return rxError(`\ at end of pattern`)
	}
	d := p[s.i+1]
	switch {
	case isDigit(d):
		s.slow()
		s.i++
		lit, ref := jsDecimalEscape(s, totalGroups)
		if ref > 0 {
			s.atom(`(?:\` + strconv.Itoa(ref) + `)`)
		} else {
			s.atom(lit)
		}
	case d == 'b':
		// JavaScript's word boundary is ASCII (as RE2's); regexp2's is not.
		s.i += 2
		s.assert(`(?:(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])|(?<![A-Za-z0-9_])(?=[A-Za-z0-9_]))`)
	case d == 'B':
		s.i += 2
		s.assert(`(?:(?<=[A-Za-z0-9_])(?=[A-Za-z0-9_])|(?<![A-Za-z0-9_])(?![A-Za-z0-9_]))`)
	case d == 'd' || d == 'D' || d == 'w' || d == 'W':
		s.i += 2
		s.atom(`\` + string(d))
	case d == 's' || d == 'S':
		s.i += 2
		s.notExact() // JavaScript's \s has \v and the Unicode spaces
		s.atom(`\` + string(d))
	case d == 't' || d == 'n' || d == 'v' || d == 'f' || d == 'r':
		s.i += 2
		s.atom(`\` + string(d))
	case d == 'c':
		s.slow()
		if s.i+2 < len(p) && isLetter(p[s.i+2]) {
			s.atom(runeLiteral(rune(p[s.i+2] % 32)))
			s.i += 3
			return nil
		}
		s.i++ // a literal backslash; the c is read next
		s.atom(`\\`)
	case d == 'x' && hexDigits(p[s.i+2:], 2):
		s.atom(`\x` + p[s.i+2:s.i+4])
		s.i += 4
	case d == 'u' && hexDigits(p[s.i+2:], 4):
		v, _ := strconv.ParseUint(p[s.i+2:s.i+6], 16, 32)
		s.slow()
		s.atom(runeLiteral(rune(v)))
		s.i += 6
	case d == 'k' && len(names) > 0:
		rest := p[s.i+2:]
		end := strings.IndexByte(rest, '>')
		if !strings.HasPrefix(rest, "<") || end < 0 {
			return rxError("invalid named reference")
		}
		n, ok := names[rest[1:end]]
		if !ok {
			return rxError("invalid named capture referenced")
		}
		s.slow()
		s.i += 2 + end + 1
		s.atom(`\k<g` + strconv.Itoa(n) + `>`)
	case isLetter(d):
		// An identity escape: \p is p, \A is A, \z is z.
		s.i += 2
		s.slow()
		s.atom(string(d))
	case d >= utf8.RuneSelf:
		r, size := utf8.DecodeRuneInString(p[s.i+1:])
		s.i += 1 + size
		s.slow()
		s.atom(runeLiteral(r))
	default:
		s.i += 2
		s.atom(escapePunct(d))
	}
	return nil
}

// jsDecimalEscape reads the digits after a backslash (s.i at the first
// digit): a back-reference when it names an existing group, else (Annex B)
// a legacy octal escape or the digits themselves.
func jsDecimalEscape(s *planState, totalGroups int) (lit string, ref int) {
	p := s.p
	j := s.i
	for j < len(p) && isDigit(p[j]) {
		j++
	}
	if p[s.i] != '0' {
		if n, err := strconv.Atoi(p[s.i:j]); err == nil && n <= totalGroups {
			s.i = j
			return "", n
		}
	}
	if p[s.i] == '8' || p[s.i] == '9' {
		s.i++
		return string(p[s.i-1]), 0
	}
	k := s.i
	for k < len(p) && k < s.i+3 && p[k] >= '0' && p[k] <= '7' {
		k++
	}
	v, _ := strconv.ParseUint(p[s.i:k], 8, 32)
	if v > 0o377 {
		k--
		v, _ = strconv.ParseUint(p[s.i:k], 8, 32)
	}
	s.i = k
	return runeLiteral(rune(v)), 0
}

// jsClass handles a character class.
func jsClass(s *planState) error {
	p := s.p
	var b strings.Builder
	b.WriteByte('[')
	s.i++
	if s.i < len(p) && p[s.i] == '^' {
		b.WriteByte('^')
		s.i++
	}
	if s.i < len(p) && p[s.i] == ']' {
		// [] matches nothing and [^] anything; RE2 reads a member ].
		s.i++
		s.slow()
		b.WriteByte(']')
		s.atom(b.String())
		return nil
	}
	item := func() (string, bool) {
		c := p[s.i]
		if c == '[' {
			s.i++
			s.slow()
			return `\[`, false
		}
		if c == '-' {
			s.i++
			return `\-`, false
		}
		if c != '\\' || s.i+1 >= len(p) {
			r, size := utf8.DecodeRuneInString(p[s.i:])
			s.i += size
			if r == '^' {
				return `\^`, false
			}
			if r == '\\' {
				return `\\`, false
			}
			return runeLiteral(r), false
		}
		d := p[s.i+1]
		s.i += 2
		switch {
		case d == 'd' || d == 'D' || d == 'w' || d == 'W':
			return `\` + string(d), true
		case d == 's' || d == 'S':
			s.notExact()
			return `\` + string(d), true
		case d == 'b':
			s.slow()
			return `\b`, false
		case d == 't' || d == 'n' || d == 'v' || d == 'f' || d == 'r':
			return `\` + string(d), false
		case d == '-':
			return `\-`, false
		case d == 'c':
			s.slow()
			if s.i < len(p) && (isLetter(p[s.i]) || isDigit(p[s.i]) || p[s.i] == '_') {
				s.i++
				return runeLiteral(rune(p[s.i-1] % 32)), false
			}
			s.i-- // a literal backslash; the c is read next
			return `\\`, false
		case d == 'x' && hexDigits(p[s.i:], 2):
			s.i += 2
			return `\x` + p[s.i-2:s.i], false
		case d == 'u' && hexDigits(p[s.i:], 4):
			v, _ := strconv.ParseUint(p[s.i:s.i+4], 16, 32)
			s.i += 4
			s.slow()
			return runeLiteral(rune(v)), false
		case isDigit(d):
			s.slow()
			if d == '8' || d == '9' {
				return string(d), false
			}
			s.i--
			k := s.i
			for k < len(p) && k < s.i+3 && p[k] >= '0' && p[k] <= '7' {
				k++
			}
			v, _ := strconv.ParseUint(p[s.i:k], 8, 32)
			if v > 0o377 {
				k--
				v, _ = strconv.ParseUint(p[s.i:k], 8, 32)
			}
			s.i = k
			return runeLiteral(rune(v)), false
		case isLetter(d):
			s.slow()
			return string(d), false
		case d >= utf8.RuneSelf:
			s.i--
			r, size := utf8.DecodeRuneInString(p[s.i:])
			s.i += size
			s.slow()
			return runeLiteral(r), false
		}
		return escapePunct(d), false
	}
	first := true
	for {
		if s.i >= len(p) {
			return rxError("unterminated character class")
		}
		if p[s.i] == ']' {
			s.i++
			break
		}
		isDash := p[s.i] == '-'
		if isDash && !first && s.i+1 < len(p) && p[s.i+1] != ']' {
			s.slow()
		}
		first = false
		lo, loSet := item()
		if !isDash && s.i+1 < len(p) && p[s.i] == '-' && p[s.i+1] != ']' {
			s.i++
			hi, hiSet := item()
			if loSet || hiSet {
				// Annex B: no range with a class escape; the - is itself.
				s.slow()
				b.WriteString(lo + `\-` + hi)
				continue
			}
			b.WriteString(lo + "-" + hi)
			continue
		}
		b.WriteString(lo)
	}
	b.WriteByte(']')
	s.atom(b.String())
	return nil
}
