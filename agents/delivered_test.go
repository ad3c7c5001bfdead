package agents

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// TestDeliveredIsWhatTheReplySays: for every agent and host × every gating
// event, Delivered says block exactly where the agent reads the reply to an
// ask as a refusal (readers, as TestGatingDecisionsNeverRunTheOriginalCall
// reads them), with the agent's reason; where the agent asks, it says
// nothing. The journal records Delivered: a person reading `log` must not
// believe a user was asked where the agent refused the call.
func TestDeliveredIsWhatTheReplySays(t *testing.T) {
	refusing := 0
	for _, gc := range gatingCalls(t) {
		reader, ok := readers[gc.name]
		if !ok {
			continue // TestGatingDecisionsNeverRunTheOriginalCall says so
		}
		a, c := gc.call.Agent, gc.call
		o := protocol.Outcome{Event: c.Event.Name, Decision: protocol.DecisionAsk, Message: "sure?"}
		got := reader(c.AgentEvent, a.Encode(c, &o))
		dec, why := a.Delivered(c, &o)
		switch {
		case got.refused && !got.asks:
			refusing++
			if dec != protocol.DecisionBlock || !strings.Contains(why, "cannot ask") {
				t.Errorf("%s %s: the agent refuses an ask, Delivered = %q, %q; want block and why", gc.name, c.AgentEvent, dec, why)
			}
		case dec != "" || why != "":
			t.Errorf("%s %s: the agent reads %+v, Delivered = %q, %q; want none", gc.name, c.AgentEvent, got, dec, why)
		}
		// Any other decision is delivered as decided.
		for _, d := range []protocol.Decision{protocol.DecisionBlock, protocol.DecisionAllow, protocol.DecisionNone} {
			if dec, why := a.Delivered(c, &protocol.Outcome{Event: c.Event.Name, Decision: d}); dec != "" || why != "" {
				t.Errorf("%s %s: Delivered(%s) = %q, %q; want none", gc.name, c.AgentEvent, d, dec, why)
			}
		}
	}
	if refusing < 5 {
		t.Errorf("%d calls refuse an ask; want Codex, Windsurf, Kiro CLI, Cline and Cursor's file read at least", refusing)
	}
}

// DeliveredBy names a call made before by its agent, host and event; a
// record without the agent's event (written before the journal kept it)
// answers by the canonical event only where all the agent's events that
// map to it agree: Codex has one for pre_tool_call, Cursor's differ (a
// file read cannot ask, a shell command can).
func TestDeliveredByACallNamed(t *testing.T) {
	ask := &protocol.Outcome{Event: "pre_tool_call", Decision: protocol.DecisionAsk, Message: "sure?"}
	for _, tc := range []struct {
		agent, host, agentEvent, event string
		want                           protocol.Decision
	}{
		{"codex", "", "PreToolUse", "", protocol.DecisionBlock},
		{"codex", "", "", "pre_tool_call", protocol.DecisionBlock},
		{"codex", "", "PermissionRequest", "", ""},
		{"cursor", "", "beforeReadFile", "", protocol.DecisionBlock},
		{"cursor", "", "beforeShellExecution", "", ""},
		{"cursor", "", "", "pre_tool_call", ""},
		{"claude", "", "PreToolUse", "", ""},
		{"claude", "vscode", "PreToolUse", "", ""},
	} {
		deliver := DeliveredBy(tc.agent, tc.host, tc.agentEvent, tc.event)
		if deliver == nil {
			t.Errorf("%+v: nil", tc)
			continue
		}
		if got, _ := deliver(ask); got != tc.want {
			t.Errorf("%+v: delivered %q, want %q", tc, got, tc.want)
		}
	}
	for _, unknown := range [][3]string{{"nobody", "", "PreToolUse"}, {"codex", "", "NoSuchEvent"}, {"claude", "nohost", "PreToolUse"}} {
		if DeliveredBy(unknown[0], unknown[1], unknown[2], "") != nil {
			t.Errorf("%v: not nil", unknown)
		}
	}
}
