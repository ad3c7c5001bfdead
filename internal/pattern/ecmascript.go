package pattern

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// JavaScript (Claude matchers): reading a pattern as new RegExp(p) does.

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
	var stack []jsGroup
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
			g, err := jsOpen(s, &named)
			if err != nil {
				return rxPlan{}, err
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
			if err := jsBraces(s); err != nil {
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

// jsGroup is a group open in planJS.
type jsGroup struct {
	start      int  // output offset of the group
	lookbehind bool // a look-behind takes no quantifier
}

// jsOpen handles a "(": a group of any kind; named counts the named groups
// so far (they are renamed g1, g2 …).
func jsOpen(s *planState, named *int) (jsGroup, error) {
	g := jsGroup{start: len(s.out)}
	rest := s.p[s.i+1:]
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
			return g, rxError("invalid capture group name")
		}
		*named++
		if !isASCIIWord(name) {
			s.slow()
		}
		s.i += 1 + end + 1
		s.emit("(?<g" + strconv.Itoa(*named) + ">")
	default:
		n, err := jsModifiers(rest[1:])
		if err != nil {
			return g, err
		}
		s.slow()
		s.emit("(" + rest[:1+n])
		s.i += 1 + 1 + n
	}
	return g, nil
}

// jsBraces handles a "{": a counted quantifier, or (Annex B) literal text.
func jsBraces(s *planState) error {
	p := s.p
	lo, hi, comma, end, ok := quantBraces(p, s.i, false)
	if !ok {
		s.i++
		s.slow()
		s.atom(`\{`)
		return nil
	}
	minN, err1 := strconv.Atoi(lo)
	maxN, err2 := strconv.Atoi(hi)
	if err1 != nil || (hi != "" && err2 != nil) {
		return rxError("quantifier too large")
	}
	if hi != "" && maxN < minN {
		return rxError("numbers out of order in {} quantifier")
	}
	if minN > 1000 || maxN > 1000 || leadingZero(lo) || leadingZero(hi) {
		s.slow()
	}
	q := "{" + lo
	if comma {
		q += "," + hi
	}
	s.i = end
	return s.quantify(q+"}", "nothing to repeat")
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
