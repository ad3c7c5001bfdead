package rule

import (
	"fmt"
	"reflect"
	"regexp"
	"regexp/syntax"
	"strings"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/vm/runtime"
)

// expr's memory budget counts elements (of ranges, and of the arrays and
// maps a rule writes), not bytes: a loop of 99,000 steps that builds a
// string from a 4 KiB argument on each allocated 476 MB before the budget
// stopped it. So what a rule may build is bounded here, by the rule's
// shape where that can be seen at compile time and by a size check where
// it cannot:
//
//   - inside a loop's body (the predicate of all, any, map, filter, count,
//     find, ...) nothing may build a string or an array as large as its
//     input: no string `+`, none of the builders below, and no `matches`
//     whose pattern is not a constant (each step would compile a regexp);
//   - outside loops each operation runs at most once, and a string `+`
//     is a concatenation that errs, before it allocates, past
//     MaxConcatBytes; split and splitAfter err past maxPieces pieces; a
//     rule holds at most maxBuilds concatenations and builders, at most
//     maxEncoders of them encoders (toJSON, toBase64, string), and an
//     encoder may not encode what another operation built, so no output
//     grows geometrically (toJSON doubles every backslash, once per
//     nesting) and what a rule builds is a small multiple of the firing.
//
// trim, trimPrefix and trimSuffix stay allowed in loops: they return a
// part of their input and allocate nothing.
const (
	// MaxConcatBytes bounds the string a rule's `+` may build.
	MaxConcatBytes = 1 << 20
	// maxBuilds bounds how many string concatenations and builders a
	// rule may hold, maxEncoders how many of them are encoders.
	maxBuilds   = 8
	maxEncoders = 2
	// maxPieces bounds the pieces split and splitAfter may cut a string
	// into: as many as the memory budget's elements.
	maxPieces = memoryBudget
)

// builders are the allowed builtins whose result is a new string or array
// as large as (or larger than) their input.
var builders = map[string]bool{
	"upper": true, "lower": true, "string": true,
	"toJSON": true, "fromJSON": true, "toBase64": true, "fromBase64": true,
	"split": true, "splitAfter": true, "keys": true, "values": true,
	"reverse": true, "median": true, "commands": true,
}

// encoders are the builders whose output may be larger than their input.
var encoders = map[string]bool{"toJSON": true, "toBase64": true, "string": true, "commands": true}

// The names the guard puts in place of `+`: on two strings (as the
// checker typed them) and on operands whose type is known only when the
// rule runs. A rule cannot spell them.
const (
	concatFn  = "#concat"
	addFn     = "#add"
	matchesFn = "#matches"
)

// MaxPatternBytes bounds a pattern a rule reads from the firing
// (`x matches args.p`): as long as a rule's own source may be, so that
// compiling it costs what compiling a rule's constant pattern may.
const MaxPatternBytes = MaxSourceBytes

func concat(params ...any) (any, error) {
	a, b := params[0].(string), params[1].(string)
	if len(a)+len(b) > MaxConcatBytes {
		return nil, fmt.Errorf("string concatenation of %d bytes; at most %d", len(a)+len(b), MaxConcatBytes)
	}
	return a + b, nil
}

func add(params ...any) (any, error) {
	if a, ok := params[0].(string); ok {
		if b, ok := params[1].(string); ok {
			return concat(a, b)
		}
	}
	if a, b, ok := ints(params); ok {
		return addInts(a, b), nil // past int's range, a float (numbers.go)
	}
	return runtime.Add(params[0], params[1]), nil
}

// matches is expr's `matches` for a pattern that is not a constant,
// refusing a pattern longer than MaxPatternBytes, or whose program would
// pass MaxPatternInsts, before compiling it.
func matches(params ...any) (any, error) {
	if runtime.IsNil(params[0]) || runtime.IsNil(params[1]) {
		return false, nil
	}
	s, ok := params[0].(string)
	if !ok {
		return nil, fmt.Errorf("cannot match %T", params[0])
	}
	p, ok := params[1].(string)
	if !ok {
		return nil, fmt.Errorf("cannot match with a pattern of type %T", params[1])
	}
	if len(p) > MaxPatternBytes {
		return nil, fmt.Errorf("pattern of %d bytes; at most %d", len(p), MaxPatternBytes)
	}
	parsed, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return nil, err // regexp.Compile's error: it parses first
	}
	if err := patternTooLarge(parsed); err != nil {
		return nil, err
	}
	re, err := regexp.Compile(p)
	if err != nil {
		return nil, err
	}
	return re.MatchString(s), nil
}

// dynamicMatch puts a bounded match in place of `matches` whose pattern
// is not a constant.
func (g *guard) dynamicMatch(node *ast.Node, n *ast.BinaryNode) {
	if n.Operator != "matches" || isConstString(n.Right) {
		return
	}
	callee := &ast.IdentifierNode{Value: matchesFn}
	call := &ast.CallNode{Callee: callee, Arguments: []ast.Node{n.Left, n.Right}}
	g.typeCall(call, callee, matchesFn)
	ast.Patch(node, call)
}

// builderName is the builtin a node calls when it is one of builders, or
// a concatenation the guard put in.
func builderName(n ast.Node) string {
	var name string
	switch c := n.(type) {
	case *ast.BuiltinNode:
		name = c.Name
	case *ast.CallNode:
		if id, ok := c.Callee.(*ast.IdentifierNode); ok {
			name = id.Value
		}
	case *ast.BinaryNode:
		if c.Operator == "+" && !(isNumber(c.Left) && isNumber(c.Right)) &&
			!(isConstString(c.Left) && isConstString(c.Right)) {
			return "+"
		}
	}
	if name == commandsFn {
		return "commands" // the guard's stopping commands(s)
	}
	if builders[name] {
		return name
	}
	if name == concatFn || name == addFn {
		return "+"
	}
	if name == matchesFn {
		return "matches"
	}
	return ""
}

func isNumber(n ast.Node) bool {
	t := n.Type()
	if t == nil {
		return false
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// loopBody refuses, in a loop's body, what builds in proportion to its
// input on every step.
func (g *guard) loopBody(body ast.Node) {
	bad := ast.Find(body, func(n ast.Node) bool {
		return builderName(n) != ""
	})
	switch name := builderName(bad); {
	case bad == nil:
	case name == "+":
		g.failLater(bad, "string concatenation (+) is not allowed inside a loop (all, any, map, filter, ...) in rules: "+
			"it copies its operands on every step (convert a number with int() to add numbers)")
	case name != "matches":
		g.failLater(bad, name+"() is not allowed inside a loop (all, any, map, filter, ...) in rules: "+
			"it builds a copy of its input on every step; call it once outside the loop")
	default:
		g.failLater(bad, "a pattern that is not a constant string is not allowed inside a loop (all, any, map, filter, ...) "+
			"in rules: it would be compiled on every step")
	}
}

func isConstString(n ast.Node) bool {
	switch c := n.(type) {
	case *ast.StringNode:
		return true
	case *ast.ConstantNode:
		_, ok := c.Value.(string)
		return ok
	}
	return false
}

// builder counts a builder's call, and refuses an encoder of what
// another operation built.
func (g *guard) builder(n ast.Node, name string, args []ast.Node) {
	if !builders[name] {
		return
	}
	g.count(n)
	if !encoders[name] {
		return
	}
	if g.encoders++; g.encoders > maxEncoders {
		g.fail(n, fmt.Sprintf("a rule may hold at most %d calls of toJSON, toBase64 and string", maxEncoders))
		return
	}
	for _, a := range args {
		inner := ast.Find(a, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.ArrayNode, *ast.MapNode:
				return true
			}
			name := builderName(n)
			return name != "" && name != "matches"
		})
		if inner != nil {
			g.fail(inner, name+"() of a value the rule built (another call, a +, a list or a map) is not allowed in rules: "+
				"its output could grow with every level")
			return
		}
	}
}

// count counts one concatenation or builder.
func (g *guard) count(n ast.Node) {
	if g.builds++; g.builds > maxBuilds {
		g.fail(n, fmt.Sprintf("a rule may hold at most %d string concatenations (+) and calls that build "+
			"strings or lists (upper, lower, split, toJSON, keys, ...)", maxBuilds))
	}
}

// plus puts a bounded concatenation in place of a `+` that is not
// between two numbers, and counts them.
func (g *guard) plus(node *ast.Node, n *ast.BinaryNode) {
	if n.Operator != "+" || isNumber(n.Left) && isNumber(n.Right) {
		return
	}
	if isConstString(n.Left) && isConstString(n.Right) {
		return // the optimiser folds it
	}
	if g.count(n); g.err != nil {
		return
	}
	name := addFn
	if t := n.Type(); t != nil && t.Kind() == reflect.String {
		name = concatFn
	}
	callee := &ast.IdentifierNode{Value: name}
	call := &ast.CallNode{Callee: callee, Arguments: []ast.Node{n.Left, n.Right}}
	g.typeCall(call, callee, name)
	ast.Patch(node, call)
}

// failLater records a loop's error, reported only when no construct the
// rule may not use at all is found (a builtin not allowed anywhere says
// so rather than that it is in a loop).
func (g *guard) failLater(n ast.Node, msg string) {
	if g.loopErr == nil {
		line, col := position(g.src, n.Location().From)
		g.loopErr = &Error{Line: line, Column: col, Msg: msg}
	}
}

// result is the first error the walk found.
func (g *guard) result() error {
	if g.err != nil {
		return g.err
	}
	return g.loopErr
}

// split and splitAfter are expr's, refusing before they cut a string
// into more than maxPieces pieces.
func split(params ...any) (any, error)      { return cut("split", strings.SplitN, params) }
func splitAfter(params ...any) (any, error) { return cut("splitAfter", strings.SplitAfterN, params) }

func cut(name string, f func(s, sep string, n int) []string, params []any) (any, error) {
	if len(params) != 2 && len(params) != 3 {
		return nil, fmt.Errorf("invalid number of arguments for %s (expected 2 or 3, got %d)", name, len(params))
	}
	s, sep := params[0].(string), params[1].(string)
	n := -1
	if len(params) == 3 {
		n = runtime.ToInt(params[2])
	}
	pieces := strings.Count(s, sep) + 1 // sep "": one per rune, and one
	if n >= 0 && pieces > n {
		pieces = n
	}
	if pieces > maxPieces {
		return nil, fmt.Errorf("%s would cut %d pieces; at most %d", name, pieces, maxPieces)
	}
	return f(s, sep, n), nil
}
