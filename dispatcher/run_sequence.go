package dispatcher

import (
	"context"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Hooks an agent runs one after another: a codec that is a
// protocol.Sequencer (Gemini CLI) runs every hook selected for a firing in
// order once one of them asks for it (`sequential: true` on its group),
// each fed what the ones before it changed. The sequence runs beside the
// firing's other hooks, each in its own report slot, so the fold is
// unchanged: only what the later hooks of the sequence are shown differs.

// sequences takes the entries that run in sequence out of procs: for each
// Sequencer codec of which an entry in procs is Sequential, all of procs'
// entries of that codec, in order. The rest stay in rest, to start at once.
func sequences(sel []Invocation, procs []int) (seqs [][]int, rest []int) {
	var asks map[protocol.Dialect]bool
	for _, i := range procs {
		e := sel[i].Entry
		if _, ok := e.Codec.(protocol.Sequencer); ok && e.Sequential {
			if asks == nil {
				asks = map[protocol.Dialect]bool{}
			}
			asks[e.Dialect] = true
		}
	}
	if asks == nil {
		return nil, procs
	}
	at := map[protocol.Dialect]int{}
	for _, i := range procs {
		e := sel[i].Entry
		if _, ok := e.Codec.(protocol.Sequencer); !ok || !asks[e.Dialect] {
			rest = append(rest, i)
			continue
		}
		n, ok := at[e.Dialect]
		if !ok {
			n = len(seqs)
			at[e.Dialect] = n
			seqs = append(seqs, nil)
		}
		seqs[n] = append(seqs[n], i)
	}
	return seqs, rest
}

// runSequence runs seq's entries one after another. After a hook that
// exited 0 by itself, the next one fires with the fields its codec makes of
// that hook's reply (NextFields); a block does not end the sequence, as
// the agent runs every hook of it whatever an earlier one decided.
func (d *Dispatcher) runSequence(ctx context.Context, ev *protocol.Event, fields map[string]any, sel []Invocation, seq []int, reports []protocol.HookReport) {
	cur := fields
	for _, i := range seq {
		e := sel[i].Entry
		rev := runEvent(ev, e)
		d.runInto(ctx, ev, sel[i], d.payloadOf(e, rev, cur), cur, &reports[i], nil)
		r := &reports[i]
		if s, ok := e.Codec.(protocol.Sequencer); ok && r.Ran && r.ExitCode != nil && *r.ExitCode == 0 && !r.TimedOut {
			cur = s.NextFields(e.DeclaredAs, rev, cur, r.Contribution)
		}
	}
}
