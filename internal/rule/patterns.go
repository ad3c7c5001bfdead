package rule

import (
	"fmt"
	"regexp/syntax"

	"github.com/expr-lang/expr/ast"
)

// patterns keeps a constant pattern (`x matches "..."`) from being
// compiled twice: expr's checker compiles it only to report a bad one,
// then its compiler compiles it again for the program. Compile checks the
// pattern's syntax itself (regexp/syntax.Parse, what regexp.Compile
// reports errors from, with expr's message and position), hides the
// string from the checker behind a constant node of the same type, and
// puts it back for the compiler, which compiles it once.
type patterns struct {
	src    string
	hidden []hiddenPattern
	err    error
}

type hiddenPattern struct {
	node *ast.BinaryNode
	str  *ast.StringNode
}

func (p *patterns) Visit(node *ast.Node) {
	b, ok := (*node).(*ast.BinaryNode)
	if !ok || b.Operator != "matches" || p.err != nil {
		return
	}
	s, ok := b.Right.(*ast.StringNode)
	if !ok {
		return
	}
	re, err := syntax.Parse(s.Value, syntax.Perl)
	if err != nil {
		// As the checker words it: the regexp package's error, at the
		// operator.
		line, col := position(p.src, b.Location().From)
		p.err = &Error{Line: line, Column: col, Msg: "error parsing regexp: " + trimRegexpPrefix(err.Error())}
		return
	}
	if err := patternTooLarge(re); err != nil {
		line, col := position(p.src, b.Location().From)
		p.err = &Error{Line: line, Column: col, Msg: err.Error()}
		return
	}
	c := &ast.ConstantNode{Value: s.Value}
	c.SetLocation(s.Location())
	b.Right = c
	p.hidden = append(p.hidden, hiddenPattern{b, s})
}

// restore puts the pattern strings back, typed as the checker types a
// string.
func (p *patterns) restore() {
	for _, h := range p.hidden {
		h.str.SetNature(*h.node.Right.Nature())
		h.node.Right = h.str
	}
	p.hidden = p.hidden[:0]
}

// trimRegexpPrefix drops the "error parsing regexp: " a syntax.Error
// already carries, so it is not said twice.
func trimRegexpPrefix(s string) string {
	const prefix = "error parsing regexp: "
	if len(s) >= len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):]
	}
	return s
}

// MaxPatternInsts bounds the program a pattern compiles to. Its bytes do
// not bound it: a repetition copies what it repeats, so 4 KiB of
// `\pL{1000}` compile to 455,000 instructions (120 MB and 0.2 s to
// compile, minutes to match 1 MiB, as matching costs instructions times
// bytes). The patterns of agent-hooks/rules compile to at most 165.
const MaxPatternInsts = 10_000

// patternTooLarge is the error for a parsed pattern whose program would
// pass MaxPatternInsts, nil for one within it.
func patternTooLarge(re *syntax.Regexp) error {
	if n := progSize(re, MaxPatternInsts+1); n > MaxPatternInsts {
		return fmt.Errorf("pattern compiles to more than %d instructions (a repetition {n} copies what it repeats n times)", MaxPatternInsts)
	}
	return nil
}

// progSize is at least the number of instructions syntax.Compile makes of
// re once simplified (as regexp.Compile does), or limit when that is more:
// reckoned on the parsed tree, before Simplify copies repeated parts.
func progSize(re *syntax.Regexp, limit int) int {
	n := 0
	switch re.Op {
	case syntax.OpLiteral:
		n = len(re.Rune)
	case syntax.OpCapture, syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		// Two captures, or a split (two when what repeats can be empty).
		n = 2 + progSize(re.Sub[0], limit)
	case syntax.OpRepeat:
		times := re.Max
		if times < 0 {
			times = re.Min + 1
		}
		// Each copy with its splits; never less than one copy.
		n = (progSize(re.Sub[0], limit) + 2) * max(times, 1)
	case syntax.OpConcat, syntax.OpAlternate:
		n = len(re.Sub)
		for _, sub := range re.Sub {
			if n += progSize(sub, limit); n > limit {
				break
			}
		}
	default: // one instruction: a class, an assertion, an empty match
		n = 1
	}
	return min(n, limit)
}
