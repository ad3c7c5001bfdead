package dispatcher

import (
	"context"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Recorder receives what a dispatch decided, for a record such as package
// journal's hash-chained log. Dispatch calls it once per firing that ran at
// least one hook, that a guard blocked without running (a fail-closed
// guard whose consent could not be confirmed), or in which the consent
// gate kept a matching hook from running (not approved, changed since
// approval, the allowlist unreadable, safe mode, declined at the prompt:
// its report's Skipped says which) — so that the record shows when
// protection was off. It is called after the fold and before Dispatch
// returns the outcome — never on the no-match path, which stays
// allocation-free. (A repository's hooks nobody approved are passed over
// before their matchers run and leave no record: they never protected
// anything.)
//
// Record is called synchronously so that a process exiting right after its
// one dispatch cannot lose the record; it must therefore return quickly and
// within a small bound whatever happens to its storage, never fail the
// dispatch (it cannot: it returns nothing), and not keep r, whose maps are
// the dispatch's own, after it returns. ctx is the dispatch's: a Recorder
// gives up before its deadline (a hook call's answer must reach the agent
// before the agent stops waiting), and whether the dispatch was cut short
// is settled before Record is called, so no time it takes changes the
// outcome.
type Recorder interface {
	Record(ctx context.Context, r *Record)
}

// Record is one dispatch as a Recorder sees it.
type Record struct {
	// Time is when the dispatch began; Elapsed how long it took up to the
	// fold.
	Time    time.Time
	Elapsed time.Duration
	Event   *protocol.Event
	// Fields are the host's fields (without the session state the hooks
	// were shown).
	Fields map[string]any
	// Cwd is the firing's working directory (protocol.Firing.Bind: the
	// host's cwd when it names a directory, else the dispatcher's).
	Cwd string
	// Agent is the agent the dispatch answered (CalledBy; "" for none):
	// what a rule saw as agent, and what selected the entries it runs
	// itself out. A replay fires the record again as that agent.
	Agent string
	// Firing is the firing the fields were read into, bound to the
	// dispatcher (nil in a record made by hand: read Fields with
	// protocol.NewFiring).
	Firing *protocol.Firing
	// Outcome is the folded outcome; its Hooks are the per-hook reports.
	Outcome *protocol.Outcome
	// Scripts[i] is what Outcome.Hooks[i] ran, as the consent gate pinned
	// it; the zero Script when nothing was pinned (not run, an http
	// handler, a gate without pins, a late async reply).
	Scripts []Script
	// Async marks the record of an event's async hooks run by a process
	// of their own (AsyncInline): the background half of a firing whose
	// foreground was recorded already. It decides nothing, and firing it
	// again would run the event's guards a second time.
	Async bool
	// Cut marks a dispatch whose context ended while its hooks ran (it
	// returned a CancelledError): Outcome is what the hooks that answered
	// said, which was no answer. Its caller answers otherwise (hook AGENT
	// refuses a gating call, and records that refusal), so a record of it
	// must not read as the firing's decision; the hooks did run, so it is
	// still recorded.
	Cut bool
}

// Script is the primary file a hook ran and its SHA-256 (hex) as the
// consent gate hashed and pinned it for this very run; for a rule entry,
// Rule is the rule's identity (hookconfig.RuleSpec.Identity).
type Script struct {
	Path   string
	SHA256 string
	Rule   string
}

// record reports the dispatch to the Recorder, if any. ran says whether at
// least one hook was started, or the gate skipped one (see Recorder); cut
// whether the dispatch's context ended while they ran (Record.Cut).
//
// fields are f's, or f's with the session's state for the hooks: the
// record keeps the host's. f is copied: the dispatch's own stays on its
// stack.
func (d *Dispatcher) record(ctx context.Context, f *protocol.Firing, start time.Time, fields map[string]any, hooks []Invocation, pins []*cmdpin.Pins, ran, cut bool, o *protocol.Outcome) {
	if d.opts.Recorder == nil || (!ran && o.Decision != protocol.DecisionBlock) {
		return
	}
	fc := *f
	r := Record{Time: start, Elapsed: time.Since(start), Event: f.Event, Fields: fields, Cwd: f.Cwd, Agent: recordedCaller(ctx), Firing: &fc, Outcome: o,
		Scripts: make([]Script, len(o.Hooks)), Async: d.opts.Async == AsyncInline, Cut: cut}
	for i := range hooks {
		// An entry not run here (an async record's foreground entries)
		// has no Invocation.Entry.
		if e := hooks[i].Entry; e != nil && e.Rule() != nil && i < len(r.Scripts) {
			r.Scripts[i].Rule = e.Rule().Identity(e.Source)
		}
		// pins[i] is nil where the pins were handed to a background run
		// (which may close them concurrently) or never taken.
		if i < len(pins) && pins[i] != nil {
			if sums := pins[i].Sums(); len(sums) > 0 {
				r.Scripts[i] = Script{Path: hooks[i].target.Primary(), SHA256: sums[0]}
			}
		}
	}
	d.opts.Recorder.Record(ctx, &r)
}
