package report

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A shadow rule's example gets what the agent gets — nothing — with what
// the rule would have done beside it, as a shadow hook's example does.
func TestShadowedRuleExample(t *testing.T) {
	for _, tc := range []struct {
		name   string
		o      protocol.Outcome
		expect hookconfig.Expect
		passed bool
		got    string
	}{
		{"block", protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no", Hooks: []protocol.HookReport{{Ran: true}}},
			hookconfig.ExpectBlock, false, "none (mode: shadow, would block: no)"},
		{"ask", protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?", Hooks: []protocol.HookReport{{Ran: true}}},
			hookconfig.ExpectNone, true, "none (mode: shadow, would ask: sure?)"},
		{"context", protocol.Outcome{Decision: protocol.DecisionNone, Context: "mind it", Hooks: []protocol.HookReport{{Ran: true}}},
			hookconfig.ExpectContext, false, "none (mode: shadow, would context)"},
		{"false", protocol.Outcome{Decision: protocol.DecisionNone, Hooks: []protocol.HookReport{{Ran: true}}},
			hookconfig.ExpectNone, true, "none (mode: shadow, would do nothing)"},
		{"not selected", protocol.Outcome{Decision: protocol.DecisionNone},
			hookconfig.ExpectNone, true, "none (the hook's matcher does not select this call)"},
		{"failed", protocol.Outcome{Decision: protocol.DecisionNone, Hooks: []protocol.HookReport{{Error: "rule: no key"}}},
			hookconfig.ExpectNone, false, "the hook failed: rule: no key"},
	} {
		o := tc.o
		shadowed(&o)
		passed, got := checkExample(&hookconfig.Example{Tool: "terminal", Expect: tc.expect}, &o)
		if passed != tc.passed || got != tc.got || o.Decision != protocol.DecisionNone || o.Message != "" || o.Context != "" {
			t.Errorf("%s: passed=%v got %q, outcome %+v", tc.name, passed, got, o)
		}
	}
}
