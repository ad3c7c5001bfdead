package rule

import (
	"errors"
	"fmt"
	"reflect"
	"sync/atomic"

	"github.com/expr-lang/expr/ast"
	"github.com/expr-lang/expr/conf"
)

// expr's VM cannot be stopped from outside, so an evaluation past its
// bound would run to its end: a loop of 99,999 scans of a 64 MiB command
// ran ten minutes, a pattern over it two days, a CPU burnt and the rule
// quarantined all that time. A rule's work is bounded at compile time
// except for what it does per step of a loop (one loop, no loop in a
// loop: guard.go), so the guard puts a check on the stop flag in every
// loop's body and after every match (stepFn), and the bound sets the
// flag: the evaluation then fails at the loop's next step or after the
// match running, within one step's work of its bound. The rest runs once
// per evaluation: a few scans of the firing (at most MaxNodes; builders
// at most maxBuilds).

// stepFn names the check the guard wraps each loop's body and each match
// in; a rule cannot spell it (expr identifiers cannot start with '#').
const stepFn = "#step"

// errStopped is what a stopped evaluation fails with. Nothing reads it:
// Eval and EvalAll have answered ErrTimeout by then.
var errStopped = errors.New("evaluation stopped: past its time bound")

// stopFlag is one evaluation's stop flag, carried to the step checks in
// the copy of its Input the program runs against (Input.stop; reached as
// `$env`). A slice of length 0 and capacity 1, not a pointer, so that an
// Input prints the same (a rule's string($env)) whatever the flag's state
// and address: a rule decides the same way when its firing is replayed.
// A nil flag is never set.
type stopFlag []atomic.Bool

func newStopFlag() stopFlag { return make(stopFlag, 0, 1) }

func (s stopFlag) set() {
	if cap(s) > 0 {
		s[:1][0].Store(true)
	}
}

func (s stopFlag) isSet() bool { return cap(s) > 0 && s[:1][0].Load() }

// step is stepFn: the loop body's value (params[1]) passed through, or
// errStopped once the evaluation's flag is set. params[0] is `$env`, the
// Input the program runs against.
func step(params ...any) (any, error) {
	if in, ok := params[0].(*Input); ok && in.stop.isSet() {
		return nil, errStopped
	}
	return params[1], nil
}

// stepTyped types a call of stepFn as its second argument, what step
// returns: a check of its own (expr.Compile's, in the tests that hold
// Compile to it) then gives the call the type the guard gives it.
func stepTyped(c *conf.Config) {
	c.Functions[stepFn].Validate = func(args []reflect.Type) (reflect.Type, error) {
		if len(args) != 2 {
			return nil, fmt.Errorf("%s takes 2 arguments, not %d", stepFn, len(args))
		}
		return args[1], nil
	}
}

// stepBody wraps a loop's body in stepFn.
func (g *guard) stepBody(p *ast.PredicateNode) { g.wrapStep(&p.Node) }

// stepMatch wraps a match in stepFn: outside a loop each operation runs
// once, but a pattern over a firing of megabytes takes seconds, and a
// rule may chain dozens (`args.command matches "a" || ... matches "z"`).
// Its check costs a call beside the match's scan.
func (g *guard) stepMatch(node *ast.Node) { g.wrapStep(node) }

// wrapStep puts stepFn around node. The call is typed as node (step
// returns its value unchanged), so that what reads it keeps the types the
// check gave: map(1..3, # * 2) is still a list of ints.
func (g *guard) wrapStep(node *ast.Node) {
	if g.plain {
		return
	}
	inner := *node
	call := g.envCall(node, stepFn, inner)
	if g.cfg != nil {
		call.SetNature(*inner.Nature())
	}
}

// envCall puts fn($env, arg) in place of node, typed as fn is configured
// (typeCall): fn reads the evaluation's stop flag from `$env`, the copy of
// the Input the program then runs against (g.steps).
func (g *guard) envCall(node *ast.Node, fn string, arg ast.Node) *ast.CallNode {
	callee := &ast.IdentifierNode{Value: fn}
	call := &ast.CallNode{Callee: callee, Arguments: []ast.Node{&ast.IdentifierNode{Value: "$env"}, arg}}
	g.typeCall(call, callee, fn)
	ast.Patch(node, call)
	g.steps = true
	return call
}

// stoppingCommands puts commandsFn in place of commands(s): the analysis
// then reads the evaluation's stop flag, carried in `$env` as the loops'
// checks read it.
func (g *guard) stoppingCommands(node *ast.Node, n *ast.CallNode) {
	if !g.plain {
		g.envCall(node, commandsFn, n.Arguments[0])
	}
}
