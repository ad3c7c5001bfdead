package rule

import (
	"fmt"
	"reflect"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/checker/nature"
	"github.com/expr-lang/expr/conf"
)

// allowed are the builtins a rule may call: string tests and shaping,
// collection predicates, numbers. Left out on purpose: the clock (now,
// date, duration, timezone: a rule must decide the same way when replayed),
// what builds output larger than its input in one call (repeat, join,
// replace), what hides a loop in an accumulator (reduce), and what builds
// maps or copies whole collections (groupBy, toPairs, fromPairs, flatten,
// concat, sort, sortBy), and uniq, which compares each element with every
// one kept: quadratic in a list of the firing's, which the memory budget
// (it counts loops and what a rule builds) does not see.
var allowed = map[string]bool{
	"len": true, "type": true,
	"all": true, "none": true, "any": true, "one": true,
	"filter": true, "map": true, "count": true,
	"find": true, "findIndex": true, "findLast": true, "findLastIndex": true,
	"first": true, "last": true, "get": true, "take": true,
	"keys": true, "values": true, "reverse": true,
	"trim": true, "trimPrefix": true, "trimSuffix": true,
	"upper": true, "lower": true, "split": true, "splitAfter": true,
	"indexOf": true, "lastIndexOf": true, "hasPrefix": true, "hasSuffix": true,
	"abs": true, "ceil": true, "floor": true, "round": true,
	"int": true, "float": true, "string": true,
	"max": true, "min": true, "sum": true, "mean": true, "median": true,
	"toJSON": true, "fromJSON": true, "toBase64": true, "fromBase64": true,
	"commands": true, "code": true,
}

// guard is an expr AST visitor that records the first construct a rule
// may not use, and makes member reads on maps strict. Compile walks it over
// the checked tree, so checking costs no second parse.
type guard struct {
	src string
	err error
	// cfg, when set, is the configuration the tree was checked with:
	// strict reads are then typed as the checker types them. Unset (as an
	// expr.Patch visitor, in tests) they are left to expr's next check.
	cfg *conf.Config
	// builds and encoders count concatenations and builders (count).
	builds, encoders int
	// loopErr is the first construct refused in a loop (failLater).
	loopErr error
	// steps says whether a loop's body was wrapped in stepFn: the
	// program then runs against a copy of its Input that carries the
	// evaluation's stop flag.
	steps bool
	// plain leaves out the stop checks (tests: compileWith).
	plain bool
}

func (g *guard) Visit(node *ast.Node) {
	if g.err != nil {
		return
	}
	switch n := (*node).(type) {
	case *ast.VariableDeclaratorNode:
		g.fail(n, "variables (let) are not allowed in rules")
	case *ast.BuiltinNode:
		g.name(n, n.Name)
		g.builder(n, n.Name, n.Arguments)
		g.sum(node, n)
	case *ast.CallNode:
		id, ok := n.Callee.(*ast.IdentifierNode)
		if !ok {
			g.fail(n, "only builtin functions can be called in rules")
			return
		}
		g.name(n, id.Value)
		g.builder(n, id.Value, n.Arguments)
		if id.Value == "commands" && len(n.Arguments) == 1 {
			g.stoppingCommands(node, n)
		}
		if id.Value == "code" && len(n.Arguments) == 1 && !g.plain {
			g.envCall(node, codeFn, n.Arguments[0])
		}
	case *ast.BinaryNode:
		g.plus(node, n)
		g.arith(node, n)
		if n.Operator == "matches" {
			g.dynamicMatch(node, n)
			g.constMatch(node, n)
			g.stepMatch(node)
		}
	case *ast.UnaryNode:
		g.negate(node, n)
	case *ast.MemberNode:
		g.strict(node, n)
	case *ast.PredicateNode:
		// One loop over a collection is linear in the firing's size; a
		// loop inside a loop is not, so it is refused.
		if inner := ast.Find(n.Node, isPredicate); inner != nil {
			g.fail(inner, "a loop (all, any, map, filter, ...) inside another is not allowed in rules")
			return
		}
		g.loopBody(n.Node)
		g.stepBody(n)
	}
}

// strict makes `args.command` an error when args has no command, instead
// of expr's nil: a rule written for a key the host did not send must not
// quietly decide "no objection". `args?.command` keeps the nil, and
// `"command" in args` asks.
func (g *guard) strict(node *ast.Node, n *ast.MemberNode) {
	prop, ok := n.Property.(*ast.StringNode)
	if !ok || n.Optional || n.Method {
		return
	}
	if t := n.Node.Type(); t != nil && t.Kind() != reflect.Map && t.Kind() != reflect.Interface {
		return
	}
	callee := &ast.IdentifierNode{Value: strictKey}
	call := &ast.CallNode{
		Callee:    callee,
		Arguments: []ast.Node{n.Node, &ast.StringNode{Value: prop.Value}},
	}
	g.typeCall(call, callee, strictKey)
	ast.Patch(node, call)
}

// typeCall gives a call the guard puts in (a strict read, a bounded
// concatenation) the natures expr's checker would
// give it (as ident and checkFunction do for a configured function: the
// callee is the function's type with the function attached, the call
// returns any), so that the tree needs no second check; the argument
// nodes keep the natures the check gave them. TestCompileAsExprCompiles
// holds the programs to what a second check gives.
func (g *guard) typeCall(call *ast.CallNode, callee *ast.IdentifierNode, name string) {
	if g.cfg == nil {
		return
	}
	fn := g.cfg.Functions[name]
	nt := g.cfg.NtCache.FromType(fn.Type())
	if nt.TypeData == nil {
		nt.TypeData = new(nature.TypeData)
	}
	nt.TypeData.Func = fn
	callee.SetNature(nt)
	call.SetNature(g.cfg.NtCache.FromType(nt.Type.Out(0)))
}

func (g *guard) name(n ast.Node, name string) {
	if !allowed[name] && name != strictKey && name != stepFn && name != concatFn && name != addFn && name != subFn && name != mulFn && name != sumFn && name != matchesFn && name != matchesConstFn && name != commandsFn && name != codeFn {
		g.fail(n, fmt.Sprintf("%s() is not allowed in rules", name))
	}
}

func (g *guard) fail(n ast.Node, msg string) {
	line, col := position(g.src, n.Location().From)
	g.err = &Error{Line: line, Column: col, Msg: msg}
}

func isPredicate(n ast.Node) bool {
	_, ok := n.(*ast.PredicateNode)
	return ok
}

// position turns expr's rune offset into a 1-based line and column.
func position(src string, offset int) (line, col int) {
	line, col = 1, 1
	i := 0
	for _, r := range src {
		if i == offset {
			break
		}
		i++
		if r == '\n' {
			line, col = line+1, 1
			continue
		}
		col++
	}
	return line, col
}
