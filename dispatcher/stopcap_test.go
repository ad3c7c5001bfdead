package dispatcher

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/sessions"
)

// A subagent that finishes between two of the agent's stops does not
// restart the count of the agent's blocked stops: a Stop rule that always
// blocks still lets the agent stop after stopBlockCap in a row. The
// subagent's allowed stop reset the count, and an agent that ran a
// subagent in each turn it was kept going for was kept going for good.
func TestStopCapHoldsAcrossSubagentStops(t *testing.T) {
	d := dispatcherWith(t, `hooks:
  pre_verify:
    - rule: 'true'
      decision: block
      message: keep going
  subagent_stop:
    - rule: 'false'
      decision: context
      message: never
`, Options{Sessions: sessions.NewMemory()})
	s := map[string]any{"session_id": "S"}
	for i := 1; i <= stopBlockCap; i++ {
		if o := dispatch(t, d, "pre_verify", s); !o.Blocked() {
			t.Fatalf("block %d was not honoured: %+v", i, o)
		}
		if o := dispatch(t, d, "subagent_stop", s); o.Blocked() {
			t.Fatalf("a subagent's stop: %+v", o)
		}
	}
	if o := dispatch(t, d, "pre_verify", s); o.Blocked() {
		t.Fatalf("block %d, a subagent's stop after each of the others, was not overridden: %+v", stopBlockCap+1, o)
	}
}

// A SubagentStop guard still gets its blocks in each subagent: a run of
// blocks that no stop of the agent's ends is still ended by the cap.
func TestStopCapSubagentGuardAlone(t *testing.T) {
	d := dispatcherWith(t, `hooks:
  subagent_stop:
    - rule: 'true'
      decision: block
      message: summarise first
`, Options{Sessions: sessions.NewMemory()})
	s := map[string]any{"session_id": "S"}
	for sub := 1; sub <= 3; sub++ {
		blocked := 0
		for {
			o := dispatch(t, d, "subagent_stop", s)
			if !o.Blocked() {
				break
			}
			if blocked++; blocked > stopBlockCap {
				t.Fatalf("subagent %d: blocked %d times", sub, blocked)
			}
		}
		if blocked != stopBlockCap {
			t.Fatalf("subagent %d: blocked %d times, want %d", sub, blocked, stopBlockCap)
		}
	}
}
