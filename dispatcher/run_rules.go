package dispatcher

import (
	"context"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/rule"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// The rules of a tier, decided inline: in one pass on one goroutine
// (rule.EvalAll), each under its own bound, from one rule.Input per event they run
// under, rather than a goroutine, a firing and an Input per entry and one
// more goroutine and timer per evaluation. Each report is filled in as
// runInto fills a rule's in, so the fold sees the same reports in the same
// slots.

// inlineRules is off only in tests that compare this path with runInto's.
var inlineRules = true

// testRuleInput, when a test sets it, is called for every rule.Input
// built for a tier's rules.
var testRuleInput func()

// inlineRule is h's rule kind when h is a rule decided in runRules.
func inlineRule(d *Dispatcher, h *Invocation) (*ruleKind, bool) {
	if !inlineRules || h.undecided != "" {
		return nil, false
	}
	k, ok := h.hookKind(d).(*ruleKind)
	return k, ok
}

// rulesBudget is the time the firing's rules have left together
// (rule.FiringBound): only their own evaluation counts, not the processes
// of the tiers in between (a slow guard before them costs them nothing).
// Tiers run one after another, so one runRules at a time spends it.
type rulesBudget struct{ left time.Duration }

// rulesBudgetOf is the budget of the rules among runnable of sel (decided
// inline, in every tier); nil when there are none.
func (d *Dispatcher) rulesBudgetOf(sel []Invocation, runnable []int) *rulesBudget {
	var bounds []time.Duration
	for _, i := range runnable {
		if _, ok := inlineRule(d, &sel[i]); ok {
			bounds = append(bounds, sel[i].Entry.Timeout)
		}
	}
	if len(bounds) == 0 {
		return nil
	}
	return &rulesBudget{left: rule.FiringBound(bounds...)}
}

// runRules decides the rule entries idx of sel (each one inlineRule) and
// fills in their reports, spending budget (nil: none is kept).
func (d *Dispatcher) runRules(ctx context.Context, ev *protocol.Event, fields map[string]any, sel []Invocation, idx []int, reports []protocol.HookReport, budget *rulesBudget) {
	select {
	case d.sem <- struct{}{}: // the tier's rules take one slot together
	case <-ctx.Done():
		for _, i := range idx {
			reports[i].Skipped = "cancelled before it started: " + ctx.Err().Error()
		}
		return
	}
	type input struct {
		rev *protocol.Event
		cwd string
		in  *rule.Input
	}
	var (
		inputs []input
		agent  = callingAgent(ctx)
		tasks  = make([]rule.Task, 0, len(idx))
		// what of each entry's run is known before the pass: a rule that
		// does not compile is answered without one.
		kinds   = make([]*ruleKind, len(idx))
		answers = make([]*ran, len(idx))
		slot    = make([]int, len(idx)) // its task
	)
	inputOf := func(h *Invocation, rev *protocol.Event) *rule.Input {
		for _, in := range inputs {
			if in.rev == rev && in.cwd == h.cwd {
				return in.in
			}
		}
		if testRuleInput != nil {
			testRuleInput()
		}
		f := d.ruleFiring(rev, *h)
		in := rule.InputOf(&f, agent)
		inputs = append(inputs, input{rev, h.cwd, in})
		return in
	}
	for n, i := range idx {
		h := &Invocation{}
		*h = sel[i]
		h.fields = fields
		k, _ := inlineRule(d, h)
		kinds[n] = k
		r, err := k.compiled(d, h.Entry)
		if err != nil {
			a := k.answer(ev, h.Entry, false, err, 0)
			answers[n] = &a
			continue
		}
		if testRuleEval != nil {
			testRuleEval(k.spec.Source)
		}
		slot[n] = len(tasks)
		tasks = append(tasks, rule.Task{Rule: r, In: inputOf(h, runEvent(ev, h.Entry)), Bound: h.Entry.Timeout})
	}
	if budget == nil {
		rule.EvalAll(ctx, tasks)
	} else {
		start := time.Now()
		evalCtx, cancel := context.WithTimeout(ctx, budget.left)
		rule.EvalAll(evalCtx, tasks)
		cancel()
		budget.left -= time.Since(start)
	}
	<-d.sem
	for n, i := range idx {
		a := answers[n]
		if a == nil {
			t := &tasks[slot[n]]
			v := kinds[n].answer(ev, sel[i].Entry, t.OK, t.Err, t.Elapsed)
			a = &v
		}
		d.finish(ctx, ev, sel[i].Entry, a, fields, &reports[i], nil)
	}
}
