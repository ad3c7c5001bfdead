package dispatcher

import (
	"math"
	"strconv"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A shared budget (protocol.SharedBudget): Claude Code gives the Claude
// hooks of some events one span of time together, whatever their own
// timeouts — SessionEnd's, as the session closes. Its hooks are held to it
// here too, so that a hook runs under hermes-hooks as long as it would
// under Claude Code: cut where Claude Code cuts it, and let finish where a
// configured timeout lets it.

// claudeBudget is the budget of a firing of ev whose selected entries are
// sel, with the hooks' environment env; 0 when there is none (the event
// has no budget, or no Claude hook runs). It is the budget's Min, raised to
// the largest timeout a Claude hook of sel configures, at most its Max; the
// budget's variable, set to a number of milliseconds above 0, replaces it.
// Hermes hooks keep Hermes' per-hook timeouts: they neither share the
// budget nor raise it.
func claudeBudget(ev *protocol.Event, sel []*hookconfig.Entry, env []string) time.Duration {
	b := ev.ClaudeBudget
	if b == nil {
		return 0
	}
	budget, held := b.Min, false
	for _, e := range sel {
		if !underBudget(e) {
			continue
		}
		held = true
		if e.TimeoutSet {
			budget = max(budget, min(e.Timeout, b.Max))
		}
	}
	if !held {
		return 0
	}
	if v, ok := cmdpin.Getenv(env, b.Env); ok {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 && !math.IsInf(ms, 0) {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	return budget
}

// underBudget reports whether e is one of the hooks a shared budget holds:
// Claude Code's own, a Claude settings handler (a Codec's entry follows its
// own agent's rules).
func underBudget(e *hookconfig.Entry) bool {
	return e.Dialect == protocol.Claude && e.Codec == nil
}

// shareBudget gives the round's runnable hooks that the event's budget
// holds its end, counted from now, as they are about to start.
func (d *Dispatcher) shareBudget(r *round) {
	if r.ev.ClaudeBudget == nil || d.opts.Async == AsyncInline {
		// Claude Code does not wait for async hooks: the other process
		// runs them past the session's end.
		return
	}
	sel := make([]*hookconfig.Entry, 0, len(r.runnable))
	for _, i := range r.runnable {
		sel = append(sel, r.selected[i])
	}
	budget := claudeBudget(r.ev, sel, d.env)
	if budget <= 0 {
		return
	}
	end := time.Now().Add(budget)
	for _, i := range r.runnable {
		if underBudget(r.selected[i]) {
			r.hooks[i].budgetEnd = end
		}
	}
}

// timeout is how long the hook may run: its entry's timeout, or less when
// a shared budget ends sooner (at least a millisecond: a hook started past
// the end times out at once rather than running without a bound).
func (h *Invocation) timeout() time.Duration {
	t := h.Entry.Timeout
	if !h.budgetEnd.IsZero() {
		t = min(t, max(time.Until(h.budgetEnd), time.Millisecond))
	}
	return t
}
