package dispatcher

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/hookproc"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// FuzzOPADecision: whatever a server answers, reading it neither panics
// nor yields a decision beyond the policy's (block, ask) or one the event
// cannot take; a block always has a message.
func FuzzOPADecision(f *testing.F) {
	for _, s := range []string{`{}`, `{"result":{}}`, `{"result":{"decision":"block","message":"m"}}`,
		`{"result":{"decision":"ask"}}`, `{"result":{"decision":"context","message":"c"}}`, `{"result":null}`,
		`{"result":[1]}`, `{"result":{"decision":1}}`, `[]`, `null`, `{"result":{"decision":"block"}`} {
		f.Add([]byte(s), uint8(0))
	}
	var events []*protocol.Event
	for _, name := range []string{"pre_tool_call", "post_tool_call", "pre_verify", "on_session_start", "pre_llm_call", "PermissionRequest"} {
		ev, ok := protocol.Lookup(name)
		if !ok {
			f.Fatalf("no event %s", name)
		}
		events = append(events, ev)
	}
	f.Fuzz(func(t *testing.T, body []byte, which uint8) {
		ev := events[int(which)%len(events)]
		c, err := opaDecision(ev, hookproc.Result{Exited: true, Stdout: body})
		if err != nil || c == nil {
			if c != nil {
				t.Fatalf("both an error and a contribution: %v %+v", err, c)
			}
			return
		}
		switch c.Decision {
		case protocol.DecisionBlock:
			if c.Message == "" || !ev.Can(protocol.CapBlock|protocol.CapContinue) {
				t.Fatalf("%s: block %+v", ev.Name, c)
			}
		case protocol.DecisionAsk:
			if !ev.Can(protocol.CapApprove) {
				t.Fatalf("%s: ask %+v", ev.Name, c)
			}
		case "":
			if c.Context == "" || !ev.Can(protocol.CapContext) {
				t.Fatalf("%s: %+v", ev.Name, c)
			}
		default:
			t.Fatalf("decision %q", c.Decision)
		}
	})
}
