package rule

import (
	"regexp/syntax"
	"strings"
)

// simple is a rule of the commonest shape, `args.KEY matches "PATTERN"`
// or `args.KEY contains "TEXT"` (the rm -rf rule, most of a
// team's file): Compile reads it without expr, and a firing whose
// args.KEY is a string is decided by the regexp or strings.Contains, as
// expr's program would (OpMatchesConst, OpContains). The pattern is only
// parsed until a firing holds every literal a match needs (most commands
// hold none of a guard's: `git push` is no `rm -rf`); it compiles then. Every other firing
// (no args, no such key, a value that is not a string) is decided by
// the expr program, compiled then: expr's answers and error messages,
// exactly. A one-shot `hook` with twenty rules spent two thirds of its
// rule time in expr's compiler (parse, check, guard, optimise, emit; ~60 k
// instructions a rule besides the pattern), for answers this gives.
//
// TestSimpleAsExpr and FuzzSimple hold both halves: every source parsed
// here compiles with expr to the same pattern or text, and decides every
// input as expr's program does.
type simple struct {
	key  string
	text string // contains: the text; matches: the pattern
	// matches: pat is the pattern, compiled the first time a firing
	// holds what every match contains (its needs: a firing without them
	// is false without the pattern compiled), shared with every rule of
	// the process that spells it (patternFor).
	matches bool
	pat     *lazyPattern
}

// notKey: expr's lexer reads the word as an operator or a literal, maybe
// not as a member name after a dot.
func notKey(w string) bool {
	switch w {
	case "in", "matches", "contains", "startsWith", "endsWith", "not", "and", "or", "let", "nil",
		"true", "false", "if", "else":
		return true
	}
	return false
}

// parseSimple reads src when it is exactly args.KEY, one or more spaces,
// matches or contains, one or more spaces, and a double-quoted string of
// printable ASCII whose only escapes are \\ and \"; nil otherwise, and
// for a pattern regexp.Compile or the size bound (patternTooLarge)
// refuses (Compile words that error).
func parseSimple(src string) *simple {
	rest, ok := strings.CutPrefix(src, "args.")
	if !ok {
		return nil
	}
	i := nameLen(rest)
	key := rest[:i]
	if key == "" || notKey(key) {
		return nil
	}
	rest = strings.TrimLeft(rest[i:], " ")
	if len(rest) == len(src)-len("args.")-i {
		return nil // no space after the key
	}
	op := ""
	for _, o := range []string{"matches", "contains"} {
		if r, ok := strings.CutPrefix(rest, o+" "); ok {
			op, rest = o, strings.TrimLeft(r, " ")
			break // one operator: "matches contains" is expr's syntax error
		}
	}
	if op == "" {
		return nil
	}
	lit, ok := simpleLiteral(rest)
	if !ok {
		return nil
	}
	s := &simple{key: key, text: lit, matches: op == "matches"}
	if s.matches {
		// What regexp.Compile parses first, and where its errors come
		// from: a pattern that parses compiles.
		re, err := syntax.Parse(lit, syntax.Perl)
		if err != nil || patternTooLarge(re) != nil {
			return nil // expr's compile words the error
		}
		s.pat = patternFor(lit)
		s.pat.setNeeds(re)
	}
	return s
}

// simpleLiteral reads s when it is one double-quoted string literal and
// nothing after it: its value.
func simpleLiteral(s string) (string, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", false
	}
	var b strings.Builder
	for i := 1; i < len(s)-1; i++ {
		c := s[i]
		switch {
		case c < 0x20 || c > 0x7e || c == '"':
			return "", false
		case c == '\\':
			if i+1 >= len(s)-1 || (s[i+1] != '\\' && s[i+1] != '"') {
				return "", false
			}
			i++
			b.WriteByte(s[i])
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// decide answers for in when args.KEY is a string (decided true); else
// the expr program must.
func (s *simple) decide(in *Input) (ok, decided bool) {
	v, found := in.Args[s.key]
	str, isString := v.(string)
	if !found || !isString {
		return false, false
	}
	if !s.matches {
		return strings.Contains(str, s.text), true
	}
	ok, err := s.pat.matchString(str)
	if err != nil {
		return false, false // cannot be: it parsed; expr's program says
	}
	return ok, true
}
