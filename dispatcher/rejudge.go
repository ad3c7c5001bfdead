package dispatcher

import (
	"context"
	"math"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/rule"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A rewritten call is judged again by the firing's rules. Every entry of
// a firing runs on the call as the agent sent it; when a hook rewrites the
// arguments (Hermes modify, Claude updatedInput, Copilot modifiedArgs …)
// and nothing blocks, the call that runs is one no rule saw: a hook
// rewriting `ls` into `rm -rf /` carried it past a rule refusing rm -rf.
// Claude Code checks an updatedInput against its permission deny rules;
// our rule entries are that check here, pure and cheap, so after the fold
// the firing's block and ask rules that ran and let the call through are
// decided once more on the call as it will run. Process hooks (command,
// worker, http, opa) are not run again: a second run has side effects and
// could rewrite again — except the managed layer's guards, whose second
// reply is read for a refusal only (rejudge_managed.go). A rule cannot
// rewrite, so this happens once, in config order, and ends.

// rejudge decides again, on the call as o's rewrite makes it, each block
// or ask rule of r that was evaluated and contributed nothing (false on
// the call as sent, or failed without failing closed), and puts its new
// report, marked Rejudged, in its slot. It says whether any report
// changed, for fold to fold again. A rule true on the call as sent has
// already decided (its message is not given twice); a context rule adds
// no refusal, so it is not read again.
func (d *Dispatcher) rejudge(ctx context.Context, r *round, o *protocol.Outcome) bool {
	return d.rejudgeRules(ctx, r.ev, r.hookFields, r.hooks, r.runnable, r.reports, o)
}

// Rejudge is what Dispatch does after its fold, for a caller that ran
// entries one by one (RunEntry) and folded their reports into o itself:
// `hermes-hooks test`, whose verdict must be the one dispatch gives
// (without it, test showed a rewrite into rm -rf / as the outcome where
// dispatch blocks). reports are entries' in config order, each run on
// fields; the rules' new reports go in their slots, and it says whether
// any changed, for the caller to fold again.
func (d *Dispatcher) Rejudge(ctx context.Context, ev *protocol.Event, fields map[string]any, entries []*hookconfig.Entry, reports []protocol.HookReport, o *protocol.Outcome) bool {
	if o.Args == nil {
		return false
	}
	f := protocol.NewFiring(ev, "", fields)
	d.bind(&f)
	hooks, idx := make([]Invocation, len(entries)), make([]int, len(entries))
	for i, e := range entries {
		hooks[i], idx[i] = d.hookFor(e, &f), i
	}
	return d.rejudgeRules(ctx, ev, fields, hooks, idx, reports, o)
}

// rejudgeRules is rejudge on the reports of hooks (idx: those that ran),
// run on hookFields.
func (d *Dispatcher) rejudgeRules(ctx context.Context, ev *protocol.Event, hookFields map[string]any, hooks []Invocation, idx []int, reports []protocol.HookReport, o *protocol.Outcome) bool {
	if o.Args == nil || o.Blocked() || ctx.Err() != nil {
		return false
	}
	var (
		call        map[string]any // hookFields as the rewrite makes them
		tier, tierd map[string]any // the fields of the last tier shown metadata, and those rewritten
		rules       []Invocation   // the rules to decide again, and their slots
		slots       []int
		changed     bool
	)
	// The rewrite under the key the host sent its arguments in, so a
	// rule's args and payload both show the call that runs; the session
	// state and metadata the hooks were shown stay. Each is built for the
	// first hook that needs it.
	rewritten := func(shown map[string]any) map[string]any {
		switch {
		case sameMap(shown, hookFields):
			if call == nil {
				f := protocol.NewFiring(ev, "", hookFields)
				call = f.WithArgs(o.Args)
			}
			return call
		case !sameMap(shown, tier):
			f := protocol.NewFiring(ev, "", shown)
			tier, tierd = shown, f.WithArgs(o.Args)
		}
		return tierd
	}
	// Whether the rewrite gives the call back as sent: asked once, for the
	// first managed guard that would run again.
	gaveBack := sync.OnceValue(func() bool { return givenBack(ev, hookFields, o.Args) })
	for _, i := range idx {
		h, rep := hooks[i], &reports[i]
		k, isRule := h.hookKind(d).(*ruleKind)
		switch {
		case h.undecided != "" || rep.Skipped != "" || rep.Would != "" || strings.HasPrefix(rep.Error, "cancelled"):
			continue
		case isRule && (rep.Contribution != nil || k.spec.Decision == hookconfig.RuleContext):
			continue
		case !isRule && (!managedRejudges(h.Entry, rep, rewroteBesides(reports, i)) || gaveBack()):
			continue
		}
		// What the hook was shown: the firing's fields, or its tier's
		// when an earlier tier passed metadata on (runTiers).
		shown := hookFields
		if h.fields != nil {
			shown = h.fields
		}
		h.fields = rewritten(shown)
		if isRule {
			rules, slots = append(rules, h), append(slots, i)
			continue
		}
		// raw: the second reply as it is, a shadow guard's too, for
		// managedAgain to read its refusal before it is set aside.
		next := baseReport(h.Entry)
		d.runInto(ctx, ev, h, d.payloadOf(h.Entry, runEvent(ev, h.Entry), h.fields), h.fields, &next, &HookRun{})
		managedAgain(rep, &next, rewriters(o.Hooks), h.Entry.Shadow)
		changed = true
	}
	if len(rules) > 0 {
		d.rejudgeRulesOnce(ctx, ev, rules, slots, reports, rewritten(hookFields), o)
		changed = true
	}
	return changed
}

// rejudgeRulesOnce decides rules, each shown the rewritten call (call:
// its fields as the first tier is shown them), in one pass as a tier's
// are decided, and puts each one's new report in its slot of reports.
// All of them, not up to the first that blocks: the fold joins the
// messages of every block in the Claude dialect, and each report names
// its rule's verdict, as in the first pass, where a tier's rules are all
// decided too.
//
// They share a time of their own, the size of the first pass's
// (rule.FiringBound), not what that pass left: the rewritten call is one
// they have not judged, and the time they took on the call as sent says
// nothing of it. Were it charged to the rewrite, a call that a rule which
// does not fail closed ran out of time on would leave the rewrite's rules
// none, and those that do not fail closed would let the rewrite through
// unread. So the rules of one call take at most two such times, one of
// them on a rewrite (once: a rule does not rewrite), however many rules
// there are.
func (d *Dispatcher) rejudgeRulesOnce(ctx context.Context, ev *protocol.Event, rules []Invocation, slots []int, reports []protocol.HookReport, call map[string]any, o *protocol.Outcome) {
	bounds := make([]time.Duration, len(rules))
	for n := range rules {
		bounds[n] = rules[n].Entry.Timeout
	}
	answers := d.decideRules(ctx, ev, rules, &callRules{left: rule.FiringBound(bounds...), fields: call})
	for n, i := range slots {
		h, rep, next := &rules[n], &reports[i], baseReport(rules[n].Entry)
		d.finish(ctx, ev, h.Entry, &answers[n], h.fields, &next, nil)
		next.Rejudged = true
		next.ElapsedMS = math.Round((rep.ElapsedMS+next.ElapsedMS)*1000) / 1000
		if rep.Error != "" {
			next.Note = joinNote("on the call as sent: "+rep.Error, next.Note)
		}
		if c := next.Contribution; c != nil {
			// A fresh contribution (ruleContribution, or the parse of a
			// fail_closed failure): its text says which call it refused.
			c.Message += " (judged on the call as rewritten by " + rewriters(o.Hooks) + ")"
		}
		*rep = next
	}
}

// rewriters names the hooks whose rewrites the outcome's arguments hold,
// in config order.
func rewriters(reports []protocol.HookReport) string {
	var names []string
	for i := range reports {
		if rewrote(&reports[i]) {
			names = append(names, reports[i].Command)
		}
	}
	if len(names) == 0 {
		return "a hook"
	}
	return strings.Join(names, ", ")
}

// sameMap says whether a and b are one map (not equal ones).
func sameMap(a, b map[string]any) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
