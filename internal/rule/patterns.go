package rule

import (
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
	if _, err := syntax.Parse(s.Value, syntax.Perl); err != nil {
		// As the checker words it: the regexp package's error, at the
		// operator.
		line, col := position(p.src, b.Location().From)
		p.err = &Error{Line: line, Column: col, Msg: "error parsing regexp: " + trimRegexpPrefix(err.Error())}
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
