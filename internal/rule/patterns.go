package rule

import (
	"fmt"
	"reflect"
	"regexp"
	"regexp/syntax"
	"sync"
	"sync/atomic"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm/runtime"
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
	if shared := patternFor(s.Value); !shared.checked.Load() {
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
		shared.setNeeds(re)
		shared.checked.Store(true)
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

// matchesConstFn is the function the guard puts in place of `x matches
// "PATTERN"`. expr's compiler compiles every constant pattern of a
// program when it emits it, so a one-shot start with the ready-made rule
// files compiled ~130 patterns (most of them behind a test of the line
// that the firing fails: `git status` names no download), fifteen of them
// the same ssh pattern. Behind this call a pattern is compiled the first
// time a firing reaches it, once per process for every rule that spells
// it. It decides as expr's OpMatchesConst does (nil: false; a string or
// bytes: the match). A rule cannot spell the name.
const matchesConstFn = "#matchesConst"

// lazyPattern is one constant pattern, compiled on first use. Its syntax
// and size were checked when the rule compiled (patterns.Visit), so
// compiling it cannot fail in a way a rule's author has not been told of.
type lazyPattern struct {
	text string
	once sync.Once
	re   *regexp.Regexp
	err  error
	// checked: patterns.Visit found its syntax and size good once, so
	// another rule of the process that spells it is not parsed again (the
	// ready-made files spell their ssh pattern fifteen times).
	checked atomic.Bool
	// needs is what every match contains (literalNeeds), set before
	// checked or by the simple rule that parsed it; nil: not known, the
	// pattern is compiled for any subject.
	needs atomic.Pointer[[][]string]
}

// setNeeds records what every match of re, the pattern parsed, contains.
func (p *lazyPattern) setNeeds(re *syntax.Regexp) {
	if p.needs.Load() == nil {
		n := literalNeeds(re, nil)
		p.needs.Store(&n)
	}
}

// matchString is whether the pattern matches s. Where s misses what
// every match contains, no match is possible, and the pattern is not
// compiled to say so (most commands hold none of a guard's words).
func (p *lazyPattern) matchString(s string) (bool, error) {
	if n := p.needs.Load(); n != nil && lacksNeeds(s, *n) {
		return false, nil
	}
	re, err := p.compiled()
	if err != nil {
		return false, err
	}
	return re.MatchString(s), nil
}

func (p *lazyPattern) compiled() (*regexp.Regexp, error) {
	p.once.Do(func() { p.re, p.err = regexp.Compile(p.text) })
	return p.re, p.err
}

// String shows the pattern in a program's disassembly.
func (p *lazyPattern) String() string { return p.text }

// maxSharedPatterns bounds the patterns patternFor remembers: serve
// compiles each reload's rules anew, and a long-lived process whose
// rules keep changing must not keep every pattern it ever read. Past it
// the table starts again (rules compiled before keep theirs).
const maxSharedPatterns = 4096

var sharedPatterns struct {
	sync.Mutex
	m map[string]*lazyPattern
}

// patternFor is the process's lazyPattern for text.
func patternFor(text string) *lazyPattern {
	sharedPatterns.Lock()
	defer sharedPatterns.Unlock()
	if p := sharedPatterns.m[text]; p != nil {
		return p
	}
	if sharedPatterns.m == nil || len(sharedPatterns.m) >= maxSharedPatterns {
		sharedPatterns.m = make(map[string]*lazyPattern)
	}
	p := &lazyPattern{text: text}
	sharedPatterns.m[text] = p
	return p
}

func matchesConst(params ...any) (any, error) {
	if runtime.IsNil(params[0]) {
		return false, nil
	}
	p := params[1].(*lazyPattern)
	var s string
	switch v := params[0].(type) {
	case string:
		s = v
	case []byte:
		s = string(v)
	default:
		// What expr's OpMatchesConst panics with, and its VM reports.
		return nil, fmt.Errorf("interface conversion: interface {} is %T, not []uint8", params[0])
	}
	ok, err := p.matchString(s)
	if err != nil {
		return nil, err
	}
	return ok, nil
}

// constMatch puts matchesConstFn in place of `x matches "PATTERN"`.
func (g *guard) constMatch(node *ast.Node, n *ast.BinaryNode) {
	s, ok := n.Right.(*ast.StringNode)
	if n.Operator != "matches" || !ok {
		return
	}
	c := &ast.ConstantNode{Value: patternFor(s.Value)}
	c.SetLocation(s.Location())
	callee := &ast.IdentifierNode{Value: matchesConstFn}
	call := &ast.CallNode{Callee: callee, Arguments: []ast.Node{n.Left, c}}
	if g.cfg != nil {
		c.SetNature(g.cfg.NtCache.FromType(reflect.TypeOf(c.Value)))
	}
	g.typeCall(call, callee, matchesConstFn)
	ast.Patch(node, call)
}
