package agents

import (
	"slices"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Delivered is what the agent (or the host calling) carries out of o where
// that is not o's decision: an ask it cannot put to a person where c was
// made (Codex before a tool, Windsurf, Kiro CLI, Cline, Cursor's file
// read) reaches it as a refusal, so Delivered is block, and why says what
// the agent could not do ("Codex cannot ask from a PreToolUse hook; this
// call is refused"). It is "" when the agent gets o's decision as decided.
//
// It encodes o as Encode does and reads which way the encoding went
// (askRefused), so that what the journal says the agent got and the reply
// it got cannot disagree.
func (a *Agent) Delivered(c *Call, o *protocol.Outcome) (delivered protocol.Decision, why string) {
	if c == nil || c.Event == nil || o == nil || o.Decision != protocol.DecisionAsk {
		return "", ""
	}
	probe := *c
	probe.askRefused = &why
	a.encodeFor(&probe, o)
	if why == "" {
		return "", ""
	}
	return protocol.DecisionBlock, why
}

// DeliveredBy is Delivered for the call a forwarded `hook AGENT` made
// (server: the caller names its agent, the host that ran the agent's file,
// if any, and the agent's event): nil when it names none this version
// knows, whose records then keep the decision alone.
func DeliveredBy(agent, host, agentEvent string) func(o *protocol.Outcome) (protocol.Decision, string) {
	a, ok := Lookup(agent)
	if !ok {
		return nil
	}
	ev, ok := a.Canonical(agentEvent)
	if !ok {
		return nil
	}
	c := &Call{Agent: a, AgentEvent: agentEvent, Event: ev}
	if host != "" {
		i := slices.IndexFunc(a.hosts, func(h *Host) bool { return h.Name == host })
		if i < 0 {
			return nil
		}
		c.Host = a.hosts[i]
	}
	return func(o *protocol.Outcome) (protocol.Decision, string) { return a.Delivered(c, o) }
}
