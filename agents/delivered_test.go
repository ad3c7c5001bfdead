package agents

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// TestDeliveredIsWhatTheReplySays: for every agent and host × every gating
// event × every outcome a hook can ask for that is not a block (an ask, a
// rewrite, a stop, and these together), Delivered says block exactly where
// the agent reads the reply as a refusal and not as what was asked (readers, as
// TestGatingDecisionsNeverRunTheOriginalCall reads them), with the agent's
// reason; where the agent carries the outcome out, it says nothing. The
// journal records Delivered: a person reading `log` must not believe a user
// was asked, a call rewritten or the agent stopped where the agent refused
// the call instead.
func TestDeliveredIsWhatTheReplySays(t *testing.T) {
	neutral := map[string]any{"command": "true"}
	outcomes := []struct {
		name string
		o    protocol.Outcome
		why  string // what the reason says the agent cannot do
	}{
		{"ask", protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?"}, "cannot ask"},
		{"rewrite", protocol.Outcome{Args: neutral}, "rewritten"},
		{"stop", protocol.Outcome{Stop: true, StopReason: "enough"}, "stop"},
		{"ask+rewrite", protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?", Args: neutral}, "cannot"},
		{"allow+rewrite", protocol.Outcome{Decision: protocol.DecisionAllow, Args: neutral}, "rewritten"},
		{"stop+ask", protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?", Stop: true}, "cannot"},
	}
	refusing := map[string]int{}
	for _, gc := range gatingCalls(t) {
		reader, ok := readers[gc.name]
		if !ok {
			continue // TestGatingDecisionsNeverRunTheOriginalCall says so
		}
		a, c := gc.call.Agent, gc.call
		for _, tc := range outcomes {
			o := tc.o
			o.Event = c.Event.Name
			got := reader(c.AgentEvent, a.Encode(c, &o))
			dec, why := a.Delivered(c, &o)
			// Carried out: each part of the outcome as asked (Cline's
			// cancel is its refusal and stops the task: a stop carried).
			carried := (o.Decision != protocol.DecisionAsk || got.asks) && (o.Args == nil || got.rewritten) && (!o.Stop || got.stops)
			switch {
			case got.refused && !carried:
				refusing[tc.name]++
				if dec != protocol.DecisionBlock || !strings.Contains(why, tc.why) {
					t.Errorf("%s %s %s: the agent refuses the call, Delivered = %q, %q; want block and why (%q)", gc.name, c.AgentEvent, tc.name, dec, why, tc.why)
				}
			case dec != "" || why != "":
				t.Errorf("%s %s %s: the agent reads %+v, Delivered = %q, %q; want none", gc.name, c.AgentEvent, tc.name, got, dec, why)
			}
		}
		// Any other decision is delivered as decided.
		for _, d := range []protocol.Decision{protocol.DecisionBlock, protocol.DecisionAllow, protocol.DecisionNone} {
			if dec, why := a.Delivered(c, &protocol.Outcome{Event: c.Event.Name, Decision: d}); dec != "" || why != "" {
				t.Errorf("%s %s: Delivered(%s) = %q, %q; want none", gc.name, c.AgentEvent, d, dec, why)
			}
		}
	}
	// Codex, Windsurf, Kiro CLI, Cline and Cursor's file read cannot ask;
	// Windsurf and Kiro CLI cannot run a rewritten call or stop the agent.
	for name, least := range map[string]int{"ask": 5, "rewrite": 3, "stop": 2} {
		if refusing[name] < least {
			t.Errorf("%d calls refuse a %s; want %d at least", refusing[name], name, least)
		}
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

// DeliveredBy names no call when the agent's event given is not the
// dispatched event's (a forwarded query or a journal record that names
// another call): Codex's PermissionRequest, whose ask is its own prompt,
// cannot stand for a pre_tool_call, where an ask is a refusal.
func TestDeliveredByRefusesAnotherEventsCall(t *testing.T) {
	if DeliveredBy("codex", "", "PermissionRequest", "pre_tool_call") != nil {
		t.Error("PermissionRequest named for a pre_tool_call: a call was named")
	}
	d := DeliveredBy("codex", "", "PreToolUse", "pre_tool_call")
	if d == nil {
		t.Fatal("PreToolUse for a pre_tool_call: no call named")
	}
	if got, _ := d(&protocol.Outcome{Decision: protocol.DecisionAsk}); got != protocol.DecisionBlock {
		t.Errorf("Codex's PreToolUse ask delivered as %q, want block", got)
	}
}
