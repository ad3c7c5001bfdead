package dispatcher

import (
	"context"
	"maps"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/protocol"
	"github.com/hermes-hooks/hermes-hooks/sessions"
)

// The phases of one Dispatch past selection: gate asks the Gate about
// every selected entry, run runs those it let through, fold folds every
// report into the outcome and hands the record over. A round carries what
// one firing has between them.

// round is one firing of an event past selection.
type round struct {
	ev      *protocol.Event
	session string
	start   time.Time // zero unless there is a Recorder
	// firing is the host's firing, bound; fields its Fields (the
	// record's).
	firing protocol.Firing
	fields map[string]any
	// late are replies of async hooks fired earlier in the session.
	late []protocol.HookReport
	// hookFields are the fields the hooks were shown (fields, with the
	// session's state when it was loaded): what a rule judging a
	// rewritten call sees beside the rewrite (rejudge).
	hookFields map[string]any

	// Per selected entry, in config order.
	selected []*hookconfig.Entry
	reports  []protocol.HookReport
	hooks    []Invocation
	pins     []*cmdpin.Pins
	// runnable indexes the entries that run; gateSkipped is set when the
	// gate kept a matching hook from running (protection off: recorded).
	runnable    []int
	gateSkipped bool
	// unapproved counts the repository's entries the gate skipped as not
	// approved (Outcome.Unapproved).
	unapproved int
}

// closePins lets go of the files the gate pinned, once the round is over.
func (r *round) closePins() {
	for _, p := range r.pins {
		p.Close()
	}
}

// gate asks the Gate about each selected entry and sets what becomes of
// it: run (r.runnable), handed to the background (async), skipped with a
// reason, or a block where a guard cannot run or be confirmed approved.
func (d *Dispatcher) gate(r *round, selected []*hookconfig.Entry, f *firing) {
	ev := r.ev
	r.selected = selected
	r.reports = make([]protocol.HookReport, len(selected))
	r.hooks = make([]Invocation, len(selected))
	r.pins = make([]*cmdpin.Pins, len(selected))
	reports, hooks := r.reports, r.hooks
	for i, e := range selected {
		reports[i] = baseReport(e)
		if d.opts.Async == AsyncInline && !e.Async {
			reports[i].Skipped = "not async: it ran in the foreground"
			continue
		}
		// What the hook runs is decided once: the gate checks (and pins)
		// those files, and the runner starts them.
		hooks[i] = d.hookFor(e, &r.firing)
		// A matcher that could not decide (the backtracking engine ran
		// out of time) selected the entry (see matcher.fits): it fails
		// to start.
		hooks[i].undecided = f.why(e)
		v := d.opts.Gate.Check(hooks[i])
		r.pins[i], hooks[i].pins = v.pins, v.pins
		switch {
		case v.Kind == VerdictRun && e.Async && hooks[i].kind.cannotRun() == "" && d.opts.Async == AsyncBackground:
			reports[i].Skipped = d.startAsync(ev, hooks[i], maps.Clone(r.fields), r.session)
			r.pins[i] = nil // the background run owns them now
		case v.Kind == VerdictRun && e.Async && hooks[i].kind.cannotRun() == "" && d.opts.Async == AsyncExternal:
			reports[i].Skipped = "async: handed to a background process; its reply comes with this session's next dispatch"
			d.deferred.Add(1)
		case v.Kind == VerdictRun && e.IfBroken() != "":
			// An if rule that cannot be evaluated: a guard must not be
			// skipped silently, so the gating event is blocked.
			reports[i].Skipped = e.IfBroken()
			if ev.Gating() {
				reports[i].Contribution = &protocol.Contribution{Decision: protocol.DecisionBlock,
					Message: "hook " + e.Text() + ": " + e.IfBroken() + ", so this tool call is blocked rather than let an unchecked guard through"}
			}
		case v.Kind == VerdictRun && hooks[i].kind.cannotRun() != "":
			// A handler that needs a model or an MCP client, or an entry
			// that cannot be read, cannot run here. On the gating event it
			// was meant as a guard: block rather than let the call through
			// unguarded, in the words its spec gives (refusal).
			reports[i].Skipped = "cannot run here (" + hooks[i].kind.cannotRun() + ")"
			if ev.Gating() {
				reports[i].Contribution = &protocol.Contribution{Decision: protocol.DecisionBlock, Message: hooks[i].refusal()}
			}
		case v.Kind == VerdictRun:
			if j := r.twinRan(i, f); j >= 0 {
				reports[i].Skipped = "runs once: the same command as " + selected[j].Source + "'s, run in this firing (as in Claude Code)"
				break
			}
			r.runnable = append(r.runnable, i)
		case v.Kind == VerdictBlock:
			d.stopWorkers(e)
			reports[i].Skipped = v.Reason
			reports[i].Contribution = &protocol.Contribution{Decision: protocol.DecisionBlock, Message: v.Reason}
		default:
			// Revoked or changed since approval: its worker, started from
			// the approved files, stops at once.
			d.stopWorkers(e)
			reports[i].Skipped = v.Reason
			// A matching hook the gate kept from running is protection
			// that was off for this firing: it goes on record.
			r.gateSkipped = true
			if v.Unapproved && !e.Scope.Global() {
				r.unapproved++
			}
		}
		if e.Shadow && reports[i].Contribution != nil {
			// A shadow guard that cannot run blocks nothing either.
			reports[i].Shadowed()
		}
	}
}

// run runs the round's runnable hooks — once-per-session ones only once,
// with the session's state in their fields — as a transform chain or in
// tiers. It returns the session as loaded and the once-hooks that ran, for
// fold to save.
func (d *Dispatcher) run(ctx context.Context, r *round, peek *sessions.Session) (sess sessions.Session, ranOnce []string) {
	fields := r.fields
	if r.session != "" && len(r.runnable) > 0 {
		sess, fields = d.loadSession(r.ev, r.session, fields, peek)
		r.runnable, ranOnce = d.filterOnce(r.selected, r.runnable, r.reports, sess)
	}
	r.hookFields = fields
	d.shareBudget(r)
	if chained(r.ev) {
		d.runChain(ctx, r.ev, fields, r.hooks, r.runnable, r.reports)
	} else {
		d.runTiers(ctx, r.ev, fields, r.hooks, r.runnable, r.reports)
	}
	return sess, ranOnce
}

// fold folds the round's reports (and the late ones) in config order,
// saves the session's state, hands the record to the Recorder, and says
// when the outcome is no answer because ctx ended while hooks ran.
func (d *Dispatcher) fold(ctx context.Context, r *round, sess sessions.Session, ranOnce []string) (protocol.Outcome, error) {
	ev, ran := r.ev, len(r.runnable) > 0
	if d.opts.Async == AsyncInline {
		// The other process's job: keep the async hooks' replies for the
		// session's next dispatch; nobody reads this outcome.
		d.keepReplies(ctx, ev, r.session, r.hooks, r.runnable, r.reports)
		outcome := protocol.Fold(ev, r.firing.Args, r.reports)
		d.record(ctx, &r.firing, r.start, r.fields, r.hooks, r.pins, ran || r.gateSkipped, false, &outcome)
		return outcome, nil
	}
	outcome := protocol.Fold(ev, r.firing.Args, append(r.reports, r.late...))
	if outcome.Args != nil && d.rejudge(ctx, r, &outcome) {
		// Only a rewrite gets here: a rule's new report is folded with the
		// rest, in its place in config order.
		outcome = protocol.Fold(ev, r.firing.Args, append(r.reports, r.late...))
	}
	if r.session != "" && ran {
		d.saveSession(ctx, ev, r.session, sess, &outcome, ranOnce)
	}
	// Whether the hooks were cut short is settled before the record: a
	// Recorder that takes its time (a journal whose lock another process
	// holds) must not make an answer late.
	cut := ran && ctx.Err() != nil
	d.record(ctx, &r.firing, r.start, r.fields, r.hooks, r.pins, ran || r.gateSkipped, cut, &outcome)
	if cut {
		// The hooks that were killed are missing from the fold: the
		// outcome would read as "no objection" where a guard never
		// answered.
		return outcome, &CancelledError{Cause: context.Cause(ctx)}
	}
	return outcome, nil
}
