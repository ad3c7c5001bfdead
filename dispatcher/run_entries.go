package dispatcher

import (
	"context"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// RunEntries runs entries (one event's, in EntriesFor's order: priority,
// then config order) against the fields as Dispatch runs the hooks it
// selected, without asking the Gate: in priority tiers, each tier shown
// the metadata the tiers before it returned, and none started after a
// tier in which a hook blocked — or, on a transform event, as a chain
// (runTiers, runChain: the same inTiers and inChain). A hook dispatch would
// not start is not started here either (HookRun.NotStarted, its report
// saying why): `hermes-hooks test` must not run a side-effecting hook
// dispatch never starts, and its verdict must be dispatch's. Within a tier
// the hooks run one after another, each through what RunEntry runs, so
// that each run's output is its own. An async hook, and one that cannot
// run here, run apart from the tiers, as dispatch keeps them out of its.
//
// held(i) keeps entries[i] out of the runs (UnrunEntry: test's repository
// hook nobody approved), as the Gate keeps a skipped hook out of a
// dispatch's: it neither runs nor blocks.
func (d *Dispatcher) RunEntries(ctx context.Context, ev *protocol.Event, entries []*hookconfig.Entry, fields map[string]any, held func(i int) bool) []HookRun {
	if fields == nil {
		fields = map[string]any{}
	}
	runs := make([]HookRun, len(entries))
	sel := make([]Invocation, len(entries))
	reports := make([]protocol.HookReport, len(entries))
	f := protocol.NewFiring(ev, "", fields)
	d.bind(&f)
	var runnable, aside []int
	for i, e := range entries {
		runs[i] = d.UnrunEntry(ev, e, fields)
		reports[i] = runs[i].Report
		sel[i].Entry = e
		if held != nil && held(i) {
			continue
		}
		sel[i] = d.hookFor(e, &f)
		if e.Async || sel[i].kind.cannotRun() != "" {
			// Dispatch hands an async hook off, and blocks with one that
			// cannot run at its gate: neither is in a tier, so neither's
			// answer keeps a later tier from starting. Run alone here.
			aside = append(aside, i)
		} else {
			runnable = append(runnable, i)
		}
	}
	started := make([]bool, len(entries))
	run := func(i int, shown map[string]any) {
		started[i] = true
		runs[i].Payload = d.payloadOf(entries[i], runEvent(ev, entries[i]), shown)
		d.runInto(ctx, ev, sel[i], runs[i].Payload, shown, &reports[i], &runs[i])
	}
	if chained(ev) {
		inChain(ev, fields, runnable, reports, run)
	} else {
		inTiers(fields, sel, runnable, reports, func(tier []int, tf map[string]any) {
			for _, i := range tier {
				run(i, tf)
			}
		})
	}
	for _, i := range aside {
		run(i, fields)
	}
	for _, i := range runnable {
		runs[i].NotStarted = !started[i]
	}
	for i := range runs {
		runs[i].Report = reports[i]
	}
	return runs
}
