package rule

import (
	"regexp/syntax"
	"strings"
)

// What a pattern's every match contains, read from its parsed form, so
// that a subject that lacks it is answered "no match" without the pattern
// compiled: a one-shot `hook` evaluates each rule once, and most commands
// hold none of a guard's words (`git status` is no `rm -rf`, no `curl`).
// Compiling a pattern costs far more than parsing it, which the rule's
// compile does anyway to report a bad one.
//
// The needs are a conjunction of clauses, each a list of literals of
// which a match holds at least one: a literal of a concatenation is a
// clause of its own; an alternation, when each of its branches needs
// something, is one clause holding one clause of each branch. Only ASCII
// literals matched case-sensitively count: a match of one is the same
// bytes in the subject, whatever else the subject holds (the engine reads
// invalid UTF-8 as U+FFFD, which no ASCII literal is). FuzzNeeds holds
// that no subject a pattern matches lacks its needs.

// literalNeeds appends the clauses every match of re satisfies.
func literalNeeds(re *syntax.Regexp, out [][]string) [][]string {
	switch re.Op {
	case syntax.OpLiteral:
		if lit, ok := asciiLiteral(re); ok {
			return append(out, []string{lit})
		}
	case syntax.OpCapture, syntax.OpPlus:
		return literalNeeds(re.Sub[0], out)
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return literalNeeds(re.Sub[0], out)
		}
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			out = literalNeeds(sub, out)
		}
	case syntax.OpAlternate:
		var clause []string
		for _, sub := range re.Sub {
			best := bestClause(literalNeeds(sub, nil))
			if best == nil {
				return out // a branch that needs nothing: the alternation neither
			}
			clause = append(clause, best...)
		}
		if len(clause) == 0 {
			return out // an empty clause no subject holds would refuse every match
		}
		return append(out, clause)
	}
	return out
}

// asciiLiteral is a literal's text when every match of it is those bytes.
func asciiLiteral(re *syntax.Regexp) (string, bool) {
	if re.Flags&syntax.FoldCase != 0 {
		return "", false
	}
	for _, r := range re.Rune {
		if r >= 0x80 {
			return "", false
		}
	}
	return string(re.Rune), len(re.Rune) > 0
}

// bestClause is the clause of a branch that an alternation takes (nil
// for none): a branch's match holds one of its literals. The longest
// literal that is a clause by itself (a longer one is rarer in a subject
// that does not match), else the shortest clause.
func bestClause(clauses [][]string) []string {
	var best []string
	for _, c := range clauses {
		switch {
		case best == nil,
			len(c) == 1 && (len(best) > 1 || len(c[0]) > len(best[0])),
			len(c) > 1 && len(best) > 1 && len(c) < len(best):
			best = c
		}
	}
	return best
}

// lacksNeeds reports whether s misses a clause: holds none of its
// literals.
func lacksNeeds(s string, needs [][]string) bool {
	for _, clause := range needs {
		held := false
		for _, lit := range clause {
			if strings.Contains(s, lit) {
				held = true
				break
			}
		}
		if !held {
			return true
		}
	}
	return false
}
