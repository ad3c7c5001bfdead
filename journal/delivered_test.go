package journal

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A record keeps the decision and, where the route's agent got something
// else (an ask it could not put, refused), what it got and why — after the
// decision, in the same chain: a journal of records with and without the
// field (those written before it) verifies, and each reads back. A cut
// record's decision was never given: nothing was delivered.
func TestRecordSaysWhatTheAgentGot(t *testing.T) {
	p := filepath.Join(t.TempDir(), DefaultFile)
	w := newWriter(t, Options{Path: p})
	ask := func(cut bool) {
		r := record("sure?")
		r.Outcome.Decision, r.Cut = protocol.DecisionAsk, cut
		w.Record(WithRoute(context.Background(), Route{Agent: "codex", AgentEvent: "PreToolUse",
			Delivered: func(o *protocol.Outcome) (protocol.Decision, string) {
				if o.Decision != protocol.DecisionAsk {
					t.Errorf("Delivered asked about %q", o.Decision)
				}
				return protocol.DecisionBlock, "it cannot ask here"
			}}), r)
	}
	w.Record(context.Background(), record("no")) // as before the field
	ask(false)
	ask(true)
	ls := readLines(t, p)
	var es [3]Entry
	for i := range es {
		if err := json.Unmarshal([]byte(ls[i]), &es[i]); err != nil {
			t.Fatal(err)
		}
	}
	if es[0].Delivered != "" || es[0].AgentEvent != "" {
		t.Errorf("a record of no agent: %+v", es[0])
	}
	if e := es[1]; e.Decision != "ask" || e.Delivered != "block" || e.DeliveredWhy != "it cannot ask here" || e.AgentEvent != "PreToolUse" {
		t.Errorf("the refused ask: %s", ls[1])
	}
	if e := es[2]; e.Decision != "ask" || e.Delivered != "" || !e.Cut {
		t.Errorf("a cut record: %s", ls[2])
	}
	if res := mustVerify(t, p); res.Bad != nil || res.Records != 3 {
		t.Fatalf("verify %+v", res)
	}
}
