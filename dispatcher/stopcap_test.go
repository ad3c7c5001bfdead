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
		if blocked := subagentBlocks(t, d, s); blocked != stopBlockCap {
			t.Fatalf("subagent %d: blocked %d times, want %d", sub, blocked, stopBlockCap)
		}
	}
}

// subagentBlocks stops one subagent until its hooks let it stop and
// returns how many of its stops were blocked; past the cap it fails.
func subagentBlocks(t *testing.T, d *Dispatcher, s map[string]any) int {
	t.Helper()
	for blocked := 0; ; blocked++ {
		if o := dispatch(t, d, "subagent_stop", s); !o.Blocked() {
			return blocked
		}
		if blocked >= stopBlockCap {
			t.Fatalf("a subagent's stop blocked %d times, past the cap of %d", blocked+1, stopBlockCap)
		}
	}
}

// A Stop guard and a SubagentStop guard that both always block cannot
// keep an agent going for good: the agent's blocked stops are counted
// apart from its subagents', so the subagent guard's cap (a free pass for
// that subagent) does not restart the agent's count. With one count for
// both, each capped subagent reset it and the two guards cycled.
func TestStopCapTwoGuardsCannotCycle(t *testing.T) {
	d := dispatcherWith(t, `hooks:
  pre_verify:
    - rule: 'true'
      decision: block
      message: keep going
  subagent_stop:
    - rule: 'true'
      decision: block
      message: summarise first
`, Options{Sessions: sessions.NewMemory()})
	s := map[string]any{"session_id": "S"}
	for turn := 1; ; turn++ {
		if o := dispatch(t, d, "pre_verify", s); !o.Blocked() {
			if turn != stopBlockCap+1 {
				t.Fatalf("the agent's stop let through at turn %d, want %d", turn, stopBlockCap+1)
			}
			return
		}
		if turn > stopBlockCap {
			t.Fatalf("the agent's stop blocked %d times, a capped subagent between each", turn)
		}
		// One subagent per turn, kept going by its guard until the cap.
		if blocked := subagentBlocks(t, d, s); blocked != stopBlockCap {
			t.Fatalf("turn %d: the subagent blocked %d times, want %d", turn, blocked, stopBlockCap)
		}
	}
}

// stop_hook_active tells each guard about its own run: a subagent's first
// stop is not "already continuing" because the agent's stop was blocked.
func TestStopHookActivePerGuard(t *testing.T) {
	d := dispatcherWith(t, `hooks:
  pre_verify:
    - rule: 'true'
      decision: block
      message: keep going
  subagent_stop:
    - rule: 'payload.stop_hook_active'
      decision: block
      message: was active
`, Options{Sessions: sessions.NewMemory()})
	s := map[string]any{"session_id": "S"}
	if o := dispatch(t, d, "pre_verify", s); !o.Blocked() {
		t.Fatalf("agent stop: %+v", o)
	}
	if o := dispatch(t, d, "subagent_stop", s); o.Blocked() {
		t.Fatalf("a subagent's first stop saw stop_hook_active true: %+v", o)
	}
}
