package dispatcher

import (
	"math"
	"reflect"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// The managed layer's process guards judge the call that runs. Rules are
// decided again on a rewritten call (rejudge.go); a process hook is not,
// since a second run has side effects. But a managed guard is the
// organisation's word, which no user or repository hook may outrank
// (docs/managed.md): were it to judge only the call as sent, any hook the
// user accepted could rewrite `make build` into what the guard refuses,
// and the rewrite would run unjudged. So a managed command, worker, http
// or opa guard that let the call as sent through is run once more on the
// rewritten call, and only a refusal of its second reply is read — its
// rewrite or context there would change the call again, after the fold.

// managedRejudges reports whether the process hook whose first report is
// rep is a managed guard to run again on a rewritten call: one that ran to
// its end (a guard that timed out or could not start already failed, open
// or closed, and would only do so again) without refusing. Ran to its end
// is no timeout and no error, not an exit status: an opa: guard's decision
// is read in-process and has none. A guard that rewrote the call itself
// runs again only when another hook rewrote it too (others): the call then
// holds a rewrite it never saw, which may undo or outrun its own (a flag it
// added, then another hook's `make deploy`).
func managedRejudges(e *hookconfig.Entry, rep *protocol.HookReport, others bool) bool {
	if !managed(e) || e.Async || e.Once || !rep.Ran || rep.TimedOut || rep.Error != "" {
		return false
	}
	c := rep.Contribution
	return c == nil || c.Decision.Rank() < protocol.DecisionAsk.Rank() && !c.Stop && (others || c.Args == nil && !c.ReplaceArgs)
}

// rewroteBesides reports whether a report of reports other than the i-th
// rewrote the call.
func rewroteBesides(reports []protocol.HookReport, i int) bool {
	for j := range reports {
		if j != i && rewrote(&reports[j]) {
			return true
		}
	}
	return false
}

// rewrote reports whether rep's contribution rewrites the call (a shadow
// one is set aside, as the fold sets it).
func rewrote(rep *protocol.HookReport) bool {
	c := rep.Contribution
	return c != nil && !rep.Shadow && (c.ReplaceArgs || len(c.Args) > 0)
}

// managedAgain folds the second run of a managed guard (next) into its
// report: a refusal of it (a block, an ask, a stop; a fail_closed guard's
// failure is a block) replaces the first run's decision, saying which call
// it refused; anything else of the second reply is dropped, and the first
// run's contribution stands. A shadow guard's refusal is recorded as what
// it would have done (HookReport.Shadowed), as a shadow rule's is on a rewrite.
func managedAgain(rep, next *protocol.HookReport, by string, shadow bool) {
	second := next.Contribution
	refused := second != nil && (second.Decision.Rank() >= protocol.DecisionAsk.Rank() || second.Stop)
	elapsed := math.Round((rep.ElapsedMS+next.ElapsedMS)*1000) / 1000
	if !refused {
		rep.ElapsedMS = elapsed
		what := "no objection"
		switch {
		case next.TimedOut:
			what = "timed out, not failing closed"
		case next.Error != "":
			what = "failed (" + next.Error + "), not failing closed"
		}
		rep.Note = joinNote(rep.Note, "run again on the call as rewritten by "+by+": "+what)
		return
	}
	c := protocol.Contribution{}
	if rep.Contribution != nil {
		c = *rep.Contribution
	}
	c.Decision, c.Message, c.RuleKey, c.ReasonJoin = second.Decision, second.Message, second.RuleKey, second.ReasonJoin
	c.Stop, c.StopReason = second.Stop, second.StopReason
	c.Message += " (judged on the call as rewritten by " + by + ")"
	next.Contribution = &c
	if shadow {
		next.Shadowed()
	}
	next.Rejudged = true
	next.ElapsedMS = elapsed
	*rep = *next
}

// givenBack reports whether args, the call as the hooks' rewrites leave
// it, is the call as sent in fields: a hook that echoes its input as its
// rewrite (an updatedInput always given) changed nothing, and a managed
// guard that judged that call is not run on it a second time (its side
// effects twice, its time twice). Values of other types (1 and 1.0) are
// taken as a change: run again at worst.
func givenBack(ev *protocol.Event, fields map[string]any, args map[string]any) bool {
	sent, ok := protocol.NewFiring(ev, "", fields).Args.(map[string]any)
	return ok && reflect.DeepEqual(sent, args)
}
