package rule

import (
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/builtin"
	"github.com/expr-lang/expr/vm/runtime"
)

// toInt is expr's int(), but a number past an integer's range (or no
// number: NaN, an infinity) is an evaluation error, as int() of a string
// that is no integer is. Go's conversion of such a float gives a value of
// the platform's choosing (int(1e20) is math.MinInt64 on amd64): a
// guard's `int(args.timeout) > 600000` read a payload's timeout of 1e20
// as below its limit and let the call through.
func toInt(params ...any) (any, error) {
	var f float64
	switch x := params[0].(type) {
	case float64:
		f = x
	case float32:
		f = float64(x)
	default:
		// Its panic (a string that is no integer, a value of no number
		// type) is the evaluation's error, as it was.
		return builtin.Int(x), nil
	}
	// -2^63 is an int, 2^63 is not; NaN fails both comparisons.
	if !(f >= -(1<<63) && f < 1<<63) {
		return nil, fmt.Errorf("invalid operation: int(%s): past the range of an integer", strconv.FormatFloat(f, 'g', -1, 64))
	}
	return int(f), nil
}

// The names the guard puts in place of `-` and `*` on operands whose type
// is known only when the rule runs (the call's numbers). A rule cannot
// spell them.
const (
	subFn = "#sub"
	mulFn = "#mul"
	sumFn = "#sum"
)

// arithFns are the operators arith checks, by their function.
var arithFns = map[string]string{"-": subFn, "*": mulFn}

// arith puts a `-` or `*` that may meet the call's numbers through sub or
// mul (`+` goes through add: plus). expr's integer arithmetic wraps at
// int's range: `args.t * 1000 > 600000` was false for t = 2^63-1, and a
// guard on a limit let the largest values through.
func (g *guard) arith(node *ast.Node, n *ast.BinaryNode) {
	name, ok := arithFns[n.Operator]
	if !ok || isNumber(n.Left) && isNumber(n.Right) {
		return
	}
	callee := &ast.IdentifierNode{Value: name}
	call := &ast.CallNode{Callee: callee, Arguments: []ast.Node{n.Left, n.Right}}
	g.typeCall(call, callee, name)
	ast.Patch(node, call)
}

// addInts, subInts and mulInts are a+b, a-b and a*b, or, past int's
// range, the float they come to: Python's (Hermes') and JavaScript's
// (Claude Code's) numbers never wrap, and the call's number means what
// they read.
func addInts(a, b int) any {
	if s := a + b; (s > a) == (b > 0) {
		return s
	}
	return float64(a) + float64(b)
}

func subInts(a, b int) any {
	if d := a - b; (d < a) == (b > 0) {
		return d
	}
	return float64(a) - float64(b)
}

func mulInts(a, b int) any {
	if p := a * b; a == 0 || p/a == b && !(a == -1 && b == math.MinInt64) {
		return p
	}
	return float64(a) * float64(b)
}

// ints is params' two operands when both are ints.
func ints(params []any) (a, b int, ok bool) {
	a, ok = params[0].(int)
	if ok {
		b, ok = params[1].(int)
	}
	return a, b, ok
}

func sub(params ...any) (any, error) {
	if a, b, ok := ints(params); ok {
		return subInts(a, b), nil
	}
	return runtime.Subtract(params[0], params[1]), nil
}

func mul(params ...any) (any, error) {
	if a, b, ok := ints(params); ok {
		return mulInts(a, b), nil
	}
	return runtime.Multiply(params[0], params[1]), nil
}

// sum puts sum(list) through sumOf, and sum(list, f) as sumOf(map(list,
// f)): expr's sum adds with its wrapping `+` (`sum(args.sizes) >
// 1000000` was false for sizes [2^63-1, 1]).
func (g *guard) sum(node *ast.Node, n *ast.BuiltinNode) {
	if n.Name != "sum" || len(n.Arguments) == 0 {
		return
	}
	list := n.Arguments[0]
	if len(n.Arguments) == 2 {
		m := &ast.BuiltinNode{Name: "map", Arguments: n.Arguments}
		m.SetType(reflect.TypeOf([]any{}))
		list = m
	}
	callee := &ast.IdentifierNode{Value: sumFn}
	call := &ast.CallNode{Callee: callee, Arguments: []ast.Node{list}}
	g.typeCall(call, callee, sumFn)
	ast.Patch(node, call)
}

// sumOf is expr's sum of a list, added as #add adds.
func sumOf(params ...any) (any, error) {
	v := reflect.ValueOf(params[0])
	if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
		return nil, fmt.Errorf("invalid argument for sum (type %T)", params[0])
	}
	var acc any = 0
	for i := 0; i < v.Len(); i++ {
		x := v.Index(i).Interface()
		a, aInt := acc.(int)
		if b, bInt := x.(int); aInt && bInt {
			acc = addInts(a, b)
			continue
		}
		acc = runtime.Add(acc, x)
	}
	return acc, nil
}

// negate puts a unary minus that may meet the call's numbers through sub
// (0 - x): -(-2^63) wraps to itself, and `-args.n > 1000` was false for
// the most negative integer.
func (g *guard) negate(node *ast.Node, n *ast.UnaryNode) {
	if n.Operator != "-" || isNumber(n.Node) {
		return
	}
	zero := &ast.IntegerNode{Value: 0}
	zero.SetType(reflect.TypeOf(0))
	callee := &ast.IdentifierNode{Value: subFn}
	call := &ast.CallNode{Callee: callee, Arguments: []ast.Node{zero, n.Node}}
	g.typeCall(call, callee, subFn)
	ast.Patch(node, call)
}

// absOf is expr's abs(), but the most negative integer's is the float it
// comes to, not itself (abs(-2^63) wraps).
func absOf(params ...any) (any, error) {
	if a, ok := params[0].(int); ok && a == math.MinInt64 {
		return -float64(a), nil
	}
	return builtin.Abs(params[0]), nil
}
