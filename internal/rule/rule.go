// Package rule compiles and evaluates policy rules: boolean expressions over
// one firing, decided in-process instead of by starting a hook process.
//
// Contract: a rule reads only the Input it is given. It has no functions
// that reach files, the network, the environment or the clock, and it is
// bounded three ways: at compile time (source length, node count, an
// allowlist of builtins, no variables, no loop inside a loop, nothing
// built from its input inside a loop, at most a few strings built outside
// one: growth.go), in the evaluator (expr's memory budget, which counts
// ranges and the arrays and maps a rule builds, and the bounds on `+`,
// dynamic patterns and split) and by a wall-clock deadline per
// evaluation. A rule that passes its deadline is quarantined: expr's VM
// cannot be stopped from outside, so the evaluation runs on until its
// loop's next step, a match or commands()' next command checks the stop
// flag its deadline set (stop.go), and
// while any such evaluation still runs the Rule starts no other: every
// Eval returns ErrQuarantined at once.
//
// The package is pure apart from that goroutine: callers decide what an
// error means (fail closed or contribute nothing).
package rule

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/expr-lang/expr/vm"

	"github.com/hermes-hooks/hermes-hooks/internal/suggest"
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

// defaultBound is DefaultTimeout; tests shorten it.
var defaultBound = DefaultTimeout

// lateEnded, when tests set it, is called when an evaluation that passed
// its deadline ends, with its error; testRun, when set, is called as each
// evaluation starts, on its goroutine.
var (
	lateEnded func(error)
	testRun   func(*Input)
)

// ErrTimeout is returned when an evaluation passes its deadline.
var ErrTimeout = errors.New("rule evaluation passed its time bound")

// ErrNotStarted is a rule's error when its firing's rules had used up
// their time together before it could start (FiringBound).
var ErrNotStarted = fmt.Errorf("%w: not started, the rules before it in this call had used up the time of all its rules", ErrTimeout)

// FiringBound is the time the rules of one firing get together to
// evaluate, in all its priority tiers: twice the longest of their bounds (each rule's own,
// at most DefaultTimeout), so that runaways of many tiers cannot add
// their bounds up, while one runaway leaves the rest a whole bound.
func FiringBound(bounds ...time.Duration) time.Duration {
	longest := time.Duration(0)
	for _, b := range bounds {
		longest = max(longest, Task{Bound: b}.bound())
	}
	return 2 * longest
}

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

	// stop is set in the copy of the Input a program with loops runs
	// against: its evaluation's stop flag.
	stop stopFlag `expr:"-"`
	// codeOf and code are, in that copy, the last line code() read and
	// what it returned (code.go).
	codeOf, code string `expr:"-"`
}

// Rule is one compiled rule. It is safe for concurrent use.
type Rule struct {
	src string
	// simple, when the rule has the commonest shape (simple.go), decides
	// the firings it can; prog is then compiled the first time one it
	// cannot comes (progOnce). Any other rule's prog is Compile's.
	simple   *simple
	progOnce sync.Once
	prog     *vm.Program
	progErr  error
	// steps: prog checks a stop flag in its loops and matches
	// (stop.go). Never set for a simple rule: its program runs only on a
	// value that is not a string, which its one match decides at once.
	steps bool
	// late counts the evaluations past their deadline that still run:
	// the rule is quarantined while one does (a count, as two firings in
	// serve can be late at once, and the first to end must not lift it).
	late atomic.Int32
}

// quarantined reports whether an evaluation past its deadline still runs.
func (r *Rule) quarantined() bool { return r.late.Load() > 0 }

// Disabled reports whether the rule is quarantined now: an evaluation of
// it that passed its deadline still runs, and Eval returns ErrQuarantined.
func (r *Rule) Disabled() bool { return r.quarantined() }

// Compile checks src against the limits and compiles it to a rule whose
// result must be a boolean.
func Compile(src string) (*Rule, error) {
	if len(src) > MaxSourceBytes {
		return nil, &Error{Msg: fmt.Sprintf("rule is %d bytes; at most %d", len(src), MaxSourceBytes)}
	}
	if s := parseSimple(src); s != nil {
		return &Rule{src: src, simple: s}, nil
	}
	prog, steps, err := compile(src)
	if err != nil {
		return nil, err
	}
	return &Rule{src: src, prog: prog, steps: steps}, nil
}

// program is the rule's expr program, compiled now if Compile left it to
// the first firing that needs it (a simple rule).
func (r *Rule) program() (*vm.Program, error) {
	if r.simple == nil {
		return r.prog, nil // compiled by Compile
	}
	r.progOnce.Do(func() { r.prog, _, r.progErr = compile(r.src) })
	return r.prog, r.progErr
}

// Source is the rule's text as written.
func (r *Rule) Source() string { return r.src }

// Eval decides the rule for one firing. It returns within the earlier of
// ctx's deadline and DefaultTimeout.
func (r *Rule) Eval(ctx context.Context, in *Input) (bool, error) {
	if r.quarantined() {
		return false, ErrQuarantined
	}
	// A timer rather than context.WithTimeout: the same bound without a
	// derived context; none when ctx already ends sooner (the dispatcher's
	// per-hook timeout).
	var bound <-chan time.Time
	if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > defaultBound {
		t := time.NewTimer(defaultBound)
		defer t.Stop()
		bound = t.C
	}
	type result struct {
		ok  bool
		err error
	}
	done := make(chan result, 1)
	// state: running, then ended (by the goroutine) or late (by Eval),
	// whichever comes first: the late count is raised and lowered once.
	const running, ended, late = 0, 1, 2
	var state atomic.Int32
	var stop stopFlag
	if r.steps {
		stop = newStopFlag()
	}
	go func() {
		ok, err := r.run(in, stop)
		done <- result{ok, err}
		if !state.CompareAndSwap(running, ended) {
			r.late.Add(-1)
			if lateEnded != nil {
				lateEnded(err)
			}
		}
	}()
	select {
	case res := <-done:
		return res.ok, res.err
	case <-ctx.Done():
	case <-bound:
	}
	// Raised before the goroutine can see late, so that its lowering
	// never comes first.
	r.late.Add(1)
	if !state.CompareAndSwap(running, late) {
		// It ended in between: nothing runs on.
		r.late.Add(-1)
		res := <-done
		return res.ok, res.err
	}
	stop.set()
	return false, ErrTimeout
}

// vms are expr VMs kept for reuse: Run resets one's stack and scopes, so
// a rule that decides in microseconds does not allocate them per firing.
var vms = sync.Pool{New: func() any { return &vm.VM{MemoryBudget: memoryBudget} }}

// run evaluates on the calling goroutine, stopping at a loop's next step
// once stop is set; a panic inside expr (it turns runtime errors into
// panics it recovers itself, but a bug must not take the dispatcher down)
// is an evaluation error.
func (r *Rule) run(in *Input, stop stopFlag) (ok bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			ok, err = false, &Error{Msg: safeMsg(fmt.Sprint("rule failed: ", p))}
		}
	}()
	if testRun != nil {
		testRun(in)
	}
	if r.simple != nil {
		if ok, decided := r.simple.decide(in); decided {
			return ok, nil
		}
	}
	prog, err := r.program()
	if err != nil {
		return false, err
	}
	env := in
	if r.steps {
		// A copy, as the Input is shared by the firing's other rules,
		// each with its own flag; only the program's loops read it.
		cp := *in
		cp.stop = stop
		env = &cp
	}
	m := vms.Get().(*vm.VM)
	out, err := m.Run(prog, env)
	// Back to the pool only after a Run that returned: one that panicked
	// is dropped with its state.
	vms.Put(m)
	if err != nil {
		return false, asError(err)
	}
	b, isBool := out.(bool)
	if !isBool {
		return false, &Error{Msg: fmt.Sprintf("rule returned %T, want a boolean", out)}
	}
	return b, nil
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
		return nil, missingKey(key, m)
	case nil:
		return nil, fmt.Errorf("cannot read %q of nil", key)
	}
	return nil, fmt.Errorf("cannot read %q of %T", key, params[0])
}

// missingKey is the error of a read of key that m lacks. When m has a key
// it resembles, the error names it first: "write ?.comand" alone sent a
// misspelt args.comand's author to a rule that then decides nothing on
// every call. Only a map of the size a call's arguments have is searched,
// and only names a rule could write are offered (the keys are the call's,
// and the error can reach the model as a refusal's reason).
func missingKey(key string, m map[string]any) error {
	if len(m) <= maxSuggestFrom && len(key) <= maxSuggestLen {
		names := make([]string, 0, len(m))
		for k := range m {
			if len(k) <= maxSuggestLen && isName(k) {
				names = append(names, k)
			}
		}
		if near := suggest.Closest(key, names); near != "" {
			return fmt.Errorf("no key %q (did you mean %s? write ?.%s only where it may be missing)", key, near, key)
		}
	}
	return fmt.Errorf("no key %q (write ?.%s where it may be missing)", key, key)
}

// maxSuggestFrom and maxSuggestLen bound the search for a key like a
// missing one: a tool's arguments have a handful of short names.
const (
	maxSuggestFrom = 64
	maxSuggestLen  = 64
)

// isName reports whether s is a name a rule reads as .s.
func isName(s string) bool { return s != "" && nameLen(s) == len(s) }

// nameLen is the length of the name s starts with, as a rule writes a key
// after a dot: a letter or _, then letters, digits or _ (ASCII).
func nameLen(s string) int {
	i := 0
	for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || i > 0 && s[i] >= '0' && s[i] <= '9') {
		i++
	}
	return i
}
