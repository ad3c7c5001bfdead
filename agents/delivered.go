package agents

import (
	"slices"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Delivered is what the agent (or the host calling) carries out of o where
// that is not o's decision: an ask it cannot put to a person where c was
// made (Codex before a tool, Windsurf, Kiro CLI, Cline, Cursor's file
// read, Claude Code's PreSkillShellCommand), a stop or a rewrite it cannot
// carry out there (Kiro CLI, Windsurf, Cursor, Qwen Code …) reaches it as
// a refusal, so Delivered is block, and why says what the agent could not
// do ("Codex cannot ask from a PreToolUse hook; this call is refused"). It
// is "" when the agent gets o as decided.
//
// It encodes o as Encode does and reads which way the encoding went
// (Call.refuses), so that what the journal says the agent got and the
// reply it got cannot disagree.
func (a *Agent) Delivered(c *Call, o *protocol.Outcome) (delivered protocol.Decision, why string) {
	if c == nil || c.Event == nil || o == nil || o.Decision == protocol.DecisionBlock ||
		o.Decision != protocol.DecisionAsk && o.Args == nil && !o.Stop {
		return "", ""
	}
	probe := *c
	probe.refused = &why
	a.encodeFor(&probe, o)
	if why == "" {
		return "", ""
	}
	return protocol.DecisionBlock, why
}

// DeliveredBy is Delivered for a call made before, named by its agent, the
// host that ran the agent's file ("" for the agent itself) and the event
// as the agent named it: a forwarded `hook AGENT` (server), a replayed
// record (replay). Without the agent's event (records written before the
// journal kept it), event, the canonical one, stands for every event of
// the agent's that maps to it, and answers only when they all agree. nil
// when the call names nothing this version knows: its records keep the
// decision alone, and so does an agent event given beside an event (the
// canonical one) that it does not map to.
func DeliveredBy(agent, host, agentEvent, event string) func(o *protocol.Outcome) (protocol.Decision, string) {
	a, ok := Lookup(agent)
	if !ok {
		return nil
	}
	var h *Host
	if host != "" {
		i := slices.IndexFunc(a.hosts, func(h *Host) bool { return h.Name == host })
		if i < 0 {
			return nil
		}
		h = a.hosts[i]
	}
	names := []string{agentEvent}
	if agentEvent == "" {
		names = nil
		for _, n := range a.AgentEvents() {
			if ev, ok := a.Canonical(n); ok && ev.Name == event {
				names = append(names, n)
			}
		}
	}
	var calls []*Call
	for _, n := range names {
		// An agent event that is not event's (a forwarded query or a
		// record naming another call than the one dispatched) names no
		// call of this firing.
		ev, ok := a.Canonical(n)
		if !ok || event != "" && ev.Name != event {
			return nil
		}
		calls = append(calls, &Call{Agent: a, AgentEvent: n, Event: ev, Host: h})
	}
	if len(calls) == 0 {
		return nil
	}
	return func(o *protocol.Outcome) (protocol.Decision, string) {
		dec, why := a.Delivered(calls[0], o)
		for _, c := range calls[1:] {
			if d, _ := a.Delivered(c, o); d != dec {
				return "", "" // the agent's events disagree: cannot tell
			}
		}
		return dec, why
	}
}
