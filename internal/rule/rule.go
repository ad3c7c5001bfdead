// Package rule compiles and evaluates policy rules: boolean expressions over
// one firing, decided in-process instead of by starting a hook process.
//
// Contract: a rule reads only the Input it is given. It has no functions
// that reach files, the network, the environment or the clock, and it is
// bounded three ways: at compile time (source length, node count, an
// allowlist of builtins, no variables, no loop inside a loop), in the
// evaluator (expr's memory budget, which counts ranges and the arrays and
// maps a rule builds) and by a wall-clock deadline per evaluation. A rule
// that passes its deadline is quarantined: its evaluation goroutine cannot
// be stopped from outside, so the Rule never starts another one and every
// later Eval returns ErrQuarantined at once.
//
// The package is pure apart from that goroutine: callers decide what an
// error means (fail closed or contribute nothing).
package rule

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/file"
	"github.com/expr-lang/expr/vm"
)

// Limits on what a rule may be. They are generous for the predicates
// people write (a pattern on a command, a path prefix, a tool name) and
// small enough that a hostile rule cannot make compiling it expensive.
const (
	MaxSourceBytes = 4096
	MaxNodes       = 256
	// memoryBudget is expr's unit count (elements of ranges, arrays and
	// maps a rule creates) per evaluation.
	memoryBudget = 100_000
	// DefaultTimeout bounds one evaluation when the caller's context
	// carries no earlier deadline.
	// It is far above what a rule needs (microseconds) so that only a
	// runaway rule meets it, even on a loaded machine.
	DefaultTimeout = 500 * time.Millisecond
)

// lateEnded, when tests set it, is called when an evaluation that passed
// its deadline ends.
var lateEnded func()

// ErrTimeout is returned when an evaluation passes its deadline.
var ErrTimeout = errors.New("rule evaluation passed its time bound")

// ErrQuarantined is returned while an earlier evaluation that passed its
// deadline is still running.
var ErrQuarantined = errors.New("rule disabled while an earlier evaluation that passed its time bound still runs")

// Input is what a rule sees: the typed firing. The expr tags are the
// names a rule spells.
type Input struct {
	Event     string         `expr:"event"`
	Tool      string         `expr:"tool"`
	ToolName  string         `expr:"tool_name"`
	Args      map[string]any `expr:"args"`
	SessionID string         `expr:"session_id"`
	Cwd       string         `expr:"cwd"`
	Agent     string         `expr:"agent"`
	Payload   map[string]any `expr:"payload"`
}

// Rule is one compiled rule. It is safe for concurrent use.
type Rule struct {
	src         string
	prog        *vm.Program
	quarantined atomic.Bool // an evaluation past its deadline still runs
}

// Error is a compile or evaluation error with its position in the rule's
// source (1-based; 0 when unknown).
type Error struct {
	Line, Column int
	Msg          string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Column, e.Msg)
	}
	return e.Msg
}

// Compile checks src against the limits and compiles it to a rule whose
// result must be a boolean.
func Compile(src string) (*Rule, error) {
	if len(src) > MaxSourceBytes {
		return nil, &Error{Msg: fmt.Sprintf("rule is %d bytes; at most %d", len(src), MaxSourceBytes)}
	}
	g := &guard{src: src}
	prog, err := expr.Compile(src,
		expr.Env(Input{}),
		expr.AsBool(),
		expr.MaxNodes(MaxNodes),
		expr.Patch(g),
		expr.Function(strictKey, fetchKey, new(func(any, string) any)),
	)
	if err != nil {
		return nil, asError(err)
	}
	if g.err != nil {
		return nil, g.err
	}
	return &Rule{src: src, prog: prog}, nil
}

// Source is the rule's text as written.
func (r *Rule) Source() string { return r.src }

// Eval decides the rule for one firing. It returns within the earlier of
// ctx's deadline and DefaultTimeout.
func (r *Rule) Eval(ctx context.Context, in *Input) (bool, error) {
	if r.quarantined.Load() {
		return false, ErrQuarantined
	}
	ctx, cancel := context.WithTimeout(ctx, DefaultTimeout)
	defer cancel()
	type result struct {
		ok  bool
		err error
	}
	done := make(chan result, 1)
	var late atomic.Bool
	go func() {
		ok, err := r.run(in)
		done <- result{ok, err}
		if late.Load() {
			r.quarantined.Store(false)
			if lateEnded != nil {
				lateEnded()
			}
		}
	}()
	select {
	case res := <-done:
		return res.ok, res.err
	case <-ctx.Done():
		// Set before late, so the goroutine that sees late clears it.
		r.quarantined.Store(true)
		late.Store(true)
		select {
		case res := <-done: // it ended in between: nothing runs on
			r.quarantined.Store(false)
			return res.ok, res.err
		default:
		}
		return false, ErrTimeout
	}
}

// run evaluates on the calling goroutine; a panic inside expr (it turns
// runtime errors into panics it recovers itself, but a bug must not take
// the dispatcher down) is an evaluation error.
func (r *Rule) run(in *Input) (ok bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			ok, err = false, &Error{Msg: fmt.Sprint("rule failed: ", p)}
		}
	}()
	m := vm.VM{MemoryBudget: memoryBudget}
	out, err := m.Run(r.prog, in)
	if err != nil {
		return false, asError(err)
	}
	b, isBool := out.(bool)
	if !isBool {
		return false, &Error{Msg: fmt.Sprintf("rule returned %T, want a boolean", out)}
	}
	return b, nil
}

// asError keeps expr's position and message, and drops its snippet: the
// caller names the file and shows the rule.
func asError(err error) error {
	var fe *file.Error
	if errors.As(err, &fe) {
		return &Error{Line: fe.Line, Column: fe.Column + 1, Msg: fe.Message}
	}
	return &Error{Msg: err.Error()}
}

// strictKey names the function the guard puts in place of `x.key` on a
// map; a rule cannot spell it (expr identifiers cannot start with '#').
const strictKey = "#key"

func fetchKey(params ...any) (any, error) {
	key := params[1].(string)
	switch m := params[0].(type) {
	case map[string]any:
		if v, ok := m[key]; ok {
			return v, nil
		}
		return nil, fmt.Errorf("no key %q (write ?.%s where it may be missing)", key, key)
	case nil:
		return nil, fmt.Errorf("cannot read %q of nil", key)
	}
	return nil, fmt.Errorf("cannot read %q of %T", key, params[0])
}
