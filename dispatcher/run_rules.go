package dispatcher

import (
	"context"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/rule"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// The rules of a tier, decided inline: in one pass on one goroutine
// (rule.EvalAll), each under its own bound, from one rule.Input per event
// they run under, rather than a goroutine, a firing and an Input per entry
// and one more goroutine and timer per evaluation. Each report is filled
// in as runInto fills a rule's in, so the fold sees the same reports in
// the same slots.

// inlineRules is off only in tests that compare this path with runInto's.
var inlineRules = true

// testRuleInput, when a test sets it, is called for every rule.Input
// built from a firing (rule.InputOf).
var testRuleInput func()

// inlineRule is h's rule kind when h is a rule decided in runRules.
func inlineRule(d *Dispatcher, h *Invocation) (*ruleKind, bool) {
	if !inlineRules || h.undecided != "" {
		return nil, false
	}
	k, ok := h.hookKind(d).(*ruleKind)
	return k, ok
}

// callRules is what the rules judging one call share across its priority
// tiers: the time they have left together (rule.FiringBound: only their
// own evaluation counts, not the processes of the tiers in between — a
// slow guard before them costs them nothing) and the rule.Inputs built
// for them. Tiers run one after another, so one pass at a time uses it.
type callRules struct {
	left time.Duration
	// fields are the call's fields as its first tier is shown them. A
	// later tier is shown them with the metadata the tiers before it
	// passed on (runTiers' withField), nothing else changed.
	fields map[string]any
	inputs []ruleInput
}

// ruleInput is the Input of the call's rules that run under rev in cwd.
type ruleInput struct {
	rev *protocol.Event
	cwd string
	in  *rule.Input
}

// rulesOf is the callRules of the rules among idx of sel (decided inline,
// in every tier) judging the call fields; nil when there are none.
func (d *Dispatcher) rulesOf(fields map[string]any, sel []Invocation, idx []int) *callRules {
	var bounds []time.Duration
	for _, i := range idx {
		if _, ok := inlineRule(d, &sel[i]); ok {
			bounds = append(bounds, sel[i].Entry.Timeout)
		}
	}
	if len(bounds) == 0 {
		return nil
	}
	return &callRules{left: rule.FiringBound(bounds...), fields: fields}
}

// input is the rule.Input a rule of h decides from under rev. InputOf
// converts the payload's numbers and copies what holds them, which on a
// payload of tens of megabytes takes seconds: it runs once per event and
// directory for the call, and a later tier's rules get that Input with
// their tier's metadata set.
func (c *callRules) input(d *Dispatcher, h *Invocation, rev *protocol.Event, agent string) *rule.Input {
	var in *rule.Input
	for _, ri := range c.inputs {
		if ri.rev == rev && ri.cwd == h.cwd {
			in = ri.in
			break
		}
	}
	if in == nil {
		if testRuleInput != nil {
			testRuleInput()
		}
		f := d.ruleFiring(rev, Invocation{fields: c.fields, cwd: h.cwd})
		in = rule.InputOf(&f, agent)
		c.inputs = append(c.inputs, ruleInput{rev, h.cwd, in})
	}
	if h.fields == nil || sameMap(h.fields, c.fields) {
		return in
	}
	return in.With("metadata", h.fields["metadata"])
}

// eval decides tasks in one pass within the time the call's rules have
// left, and spends what it took.
func (c *callRules) eval(ctx context.Context, tasks []rule.Task) {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, c.left)
	rule.EvalAll(ctx, tasks)
	cancel()
	c.left -= time.Since(start)
}

// runRules decides the rule entries idx of sel (each one inlineRule),
// shown fields, and fills in their reports.
func (d *Dispatcher) runRules(ctx context.Context, ev *protocol.Event, fields map[string]any, sel []Invocation, idx []int, reports []protocol.HookReport, rules *callRules) {
	select {
	case d.sem <- struct{}{}: // the tier's rules take one slot together
	case <-ctx.Done():
		for _, i := range idx {
			reports[i].Skipped = "cancelled before it started: " + ctx.Err().Error()
		}
		return
	}
	hs := make([]Invocation, len(idx))
	for n, i := range idx {
		hs[n] = sel[i]
		hs[n].fields = fields
	}
	answers := d.decideRules(ctx, ev, hs, rules)
	<-d.sem
	for n, i := range idx {
		d.finish(ctx, ev, sel[i].Entry, &answers[n], fields, &reports[i], nil)
	}
}

// decideRules decides the rules hs (each a rule kind, its fields what it
// is shown) in one pass under rules' time, and says what each run came
// to. A rule that does not compile is answered without the pass.
func (d *Dispatcher) decideRules(ctx context.Context, ev *protocol.Event, hs []Invocation, rules *callRules) []ran {
	var (
		agent   = callingAgent(ctx)
		tasks   = make([]rule.Task, 0, len(hs))
		kinds   = make([]*ruleKind, len(hs))
		answers = make([]ran, len(hs))
		slot    = make([]int, len(hs)) // its task; -1: answered
	)
	for n := range hs {
		h := &hs[n]
		k := h.hookKind(d).(*ruleKind)
		kinds[n] = k
		r, err := k.compiled(d, h.Entry)
		if err != nil {
			answers[n], slot[n] = k.answer(ev, h.Entry, false, err, 0), -1
			continue
		}
		if testRuleEval != nil {
			testRuleEval(k.spec.Source)
		}
		rev := runEvent(ev, h.Entry)
		slot[n] = len(tasks)
		tasks = append(tasks, rule.Task{Rule: r, In: rules.input(d, h, rev, agent), Bound: h.Entry.Timeout})
	}
	rules.eval(ctx, tasks)
	for n := range hs {
		if slot[n] >= 0 {
			t := &tasks[slot[n]]
			answers[n] = kinds[n].answer(ev, hs[n].Entry, t.OK, t.Err, t.Elapsed)
		}
	}
	return answers
}
