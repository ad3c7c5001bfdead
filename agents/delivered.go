package agents

import "github.com/hermes-hooks/hermes-hooks/protocol"

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
