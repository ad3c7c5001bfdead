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

// Nor does a subagent that is let stop by the cap: the agent's and its
// subagents' blocks are one run, which the agent's next stop ends. Capping
// the subagent restarted the count, and a Stop hook and a SubagentStop
// hook that always block kept the agent going for good.
func TestStopCapHoldsAcrossCappedSubagents(t *testing.T) {
	d := dispatcherWith(t, `hooks:
  pre_verify:
    - rule: 'true'
      decision: block
      message: keep going
  subagent_stop:
    - rule: 'true'
      decision: block
      message: keep going too
`, Options{Sessions: sessions.NewMemory()})
	s := map[string]any{"session_id": "S"}
	blocks := func(event string) bool { o := dispatch(t, d, event, s); return o.Blocked() }
	blocked := 0
	for blocks("pre_verify") {
		if blocked++; blocked > stopBlockCap {
			t.Fatalf("the agent's stop blocked %d times, a capped subagent between each", blocked)
		}
		for n := 0; blocks("subagent_stop"); n++ {
			if n > stopBlockCap {
				t.Fatal("a subagent's stop is never let through")
			}
		}
	}
	// The run ended with the agent's stop: the next one is blocked again.
	if o := dispatch(t, d, "pre_verify", s); !o.Blocked() {
		t.Fatalf("the count restarts once the agent stopped: %+v", o)
	}
}
