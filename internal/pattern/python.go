package pattern

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Python (Hermes matchers): reading a pattern as Python's re does.

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
