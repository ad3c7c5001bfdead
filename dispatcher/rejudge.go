package dispatcher

import (
	"context"
	"math"
	"reflect"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
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
		fields  map[string]any // the call as it will run: built for the first rule that needs it
		base    map[string]any // what fields were built on
		changed bool
	)
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
		// What the rule was shown: the firing's fields, or its tier's
		// when an earlier tier passed metadata on (runTiers).
		shown := hookFields
		if h.fields != nil {
			shown = h.fields
		}
		if fields == nil || !sameMap(shown, base) {
			// The rewrite under the key the host sent its arguments in,
			// so a rule's args and payload both show the call that runs;
			// the session state and metadata the hooks were shown stay.
			f := protocol.NewFiring(ev, "", shown)
			fields, base = f.WithArgs(o.Args), shown
		}
		h.fields = fields
		next := baseReport(h.Entry)
		if !isRule {
			// raw: the second reply as it is, a shadow guard's too, for
			// managedAgain to read its refusal before it is set aside.
			d.runInto(ctx, ev, h, d.payloadOf(h.Entry, runEvent(ev, h.Entry), fields), fields, &next, &HookRun{})
			managedAgain(rep, &next, rewriters(o.Hooks), h.Entry.Shadow)
			changed = true
			continue
		}
		a := k.run(ctx, d, ev, h, nil)
		d.finish(ctx, ev, h.Entry, &a, fields, &next, nil)
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
		changed = true
	}
	return changed
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
