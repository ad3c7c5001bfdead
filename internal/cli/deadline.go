package cli

import (
	"context"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// An agent that times out its hook goes on without the answer: every
// agent lets the tool call through then. So `hook AGENT` answers before
// the agent's deadline — what install wrote (--agent-timeout), else the
// agent's documented default for the event — less a margin for our own
// start and for killing what still runs: a guard that has not answered by
// then makes a gating event refused (it cannot be asked in time), and
// any other event is answered without it.

// LateError is the cause of a dispatch cut short at the agent's deadline.
type LateError struct {
	Agent string
	Limit time.Duration
	// end is when the agent stops waiting, less half the margin: the
	// refusal's record gives up then, so that the refusal itself is not
	// late.
	end time.Time
	// config is the config the cut dispatch loaded: the refusal is
	// journaled by it, not by a second load of every file the dispatch
	// read, after the deadline. nil when the dispatch never loaded one (the
	// time went on asking a server to answer); hookLate loads it then.
	config *hookconfig.Config
}

func (e *LateError) Error() string {
	return e.Agent + " waits " + agents.FormatSeconds(e.Limit) + " s for its hook, and the hooks had not all answered"
}

// deadlineMargin is how long before the agent's deadline the answer is
// written: a tenth of it, between a quarter of a second and five seconds.
func deadlineMargin(limit time.Duration) time.Duration {
	return min(max(limit/10, 250*time.Millisecond), 5*time.Second)
}

// hookDeadline is the context of call's dispatch: it ends a margin before
// the agent's deadline, counted from start (when the agent started us,
// near enough), with a LateError as its cause. A host that runs the
// agent's file (VS Code) may wait less than the agent; no known limit
// leaves no deadline.
func hookDeadline(start time.Time, agent *agents.Agent, call *agents.Call, flag time.Duration) (context.Context, context.CancelFunc) {
	limit, who := agentLimit(agent, call.AgentEvent, flag), agent.Title
	if h := call.Host; h != nil && h.Timeout > 0 && (limit <= 0 || h.Timeout < limit) {
		limit, who = h.Timeout, h.Title
	}
	if limit <= 0 {
		return context.WithCancel(context.Background())
	}
	late := &LateError{Agent: who, Limit: limit, end: start.Add(limit - deadlineMargin(limit)/2)}
	return context.WithDeadlineCause(context.Background(), answerBy(start, limit), late)
}

// agentLimit is how long agent waits for its hook of event: the
// --agent-timeout flag, else the agent's default (0: no known limit).
func agentLimit(agent *agents.Agent, event string, flag time.Duration) time.Duration {
	if flag > 0 {
		return flag
	}
	return agent.DefaultTimeout(event)
}

// answerBy is when the answer is due, a margin before the agent's limit
// counted from start.
func answerBy(start time.Time, limit time.Duration) time.Time {
	return start.Add(limit - deadlineMargin(limit))
}

// hookLate answers a dispatch cut short at the deadline: a gating event
// is refused, naming the guards that had not answered; any other gets
// what the hooks that did answer said.
func (a *App) hookLate(agent *agents.Agent, call *agents.Call, outcome *protocol.Outcome, late *LateError) error {
	if !call.Event.Gating() {
		a.Warn(late.Error() + ": " + lateHooks(outcome) + " left out of the answer")
		return writeReply(a, agent.Encode(call, outcome))
	}
	msg := "hermes-hooks: " + lateHooks(outcome) + " did not answer in time (" + late.Error() + "); this call is refused rather than let through unchecked"
	a.Warn(msg)
	// The refusal goes on the journal like any block: the dispatch it cut
	// short is recorded as cut (dispatcher.Record.Cut), no answer.
	refused := *outcome
	refused.Event, refused.Decision, refused.Message = call.Event.Name, protocol.DecisionBlock, msg
	cfg := late.config
	if cfg == nil {
		var err error
		if cfg, err = a.load(Cwd()); err != nil {
			cfg = nil
		}
	}
	rctx, cancel := context.WithDeadline(context.Background(), late.end)
	defer cancel()
	a.journalRefusal(rctx, cfg, call.Event, call.Fields, &refused)
	return writeReply(a, agent.Deny(call, msg))
}

// lateHooks names the hooks the deadline cut short (killed, or never
// started), as "guard X" or "guards X, Y".
func lateHooks(o *protocol.Outcome) string {
	var names []string
	for _, h := range o.Hooks {
		if strings.HasPrefix(h.Error, "cancelled") || strings.HasPrefix(h.Skipped, "cancelled") {
			names = append(names, h.Command)
		}
	}
	switch len(names) {
	case 0:
		return "its guards"
	case 1:
		return "guard " + names[0]
	}
	return "guards " + strings.Join(names, ", ")
}
