package dispatcher

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// TestRunEntriesStartsWhatDispatchStarts: RunEntries (hermes-hooks test)
// keeps dispatch's order: a block in an earlier priority tier, or earlier
// in a transform chain, leaves the hooks after it unstarted, their runs
// saying so, and a held entry neither runs nor blocks.
func TestRunEntriesStartsWhatDispatchStarts(t *testing.T) {
	dir := t.TempDir()
	sentinel := filepath.Join(dir, "late-ran")
	guard := script(t, dir, "guard.sh", `echo '{"action":"block","message":"stop here"}'`)
	peer := script(t, dir, "peer.sh", `echo '{}'`)
	late := script(t, dir, "late.sh", "touch "+sentinel)
	for _, tc := range []struct {
		event, yml string
		held       func(i int) bool
		notStarted []bool // per entry, in EntriesFor's order
		why        string
	}{
		{"pre_tool_call", "hooks:\n  pre_tool_call:\n    - command: " + late + "\n      priority: 5\n    - command: " + guard + "\n    - command: " + peer + "\n",
			nil, []bool{false, false, true}, "not started: a hook of an earlier priority blocked"},
		{"transform_user_input", "hooks:\n  transform_user_input:\n    - command: " + guard + "\n    - command: " + late + "\n",
			nil, []bool{false, true}, "not started: an earlier hook of the chain blocked"},
		// A fail_closed entry that cannot be read blocks at dispatch's
		// gate, outside the tiers: it keeps no later tier from starting.
		{"pre_tool_call", "hooks:\n  pre_tool_call:\n    - command: " + late + "\n      priority: 5\n    - comand: " + guard + "\n      fail_closed: true\n",
			nil, []bool{false, false}, ""},
		// A held guard blocks nothing: the later tier runs.
		{"pre_tool_call", "hooks:\n  pre_tool_call:\n    - command: " + late + "\n      priority: 5\n    - command: " + guard + "\n",
			func(i int) bool { return i == 0 }, []bool{false, false}, ""},
	} {
		_ = os.Remove(sentinel)
		d := dispatcherFor(t, tc.yml)
		ev, _ := protocol.Lookup(tc.event)
		fields := map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}, "user_message": "x"}
		runs := d.RunEntries(context.Background(), ev, d.EntriesFor(ev), fields, tc.held)
		if len(runs) != len(tc.notStarted) {
			t.Fatalf("%s: %d runs, want %d", tc.event, len(runs), len(tc.notStarted))
		}
		lateStarted := false
		for i, r := range runs {
			if r.NotStarted != tc.notStarted[i] {
				t.Errorf("%s: run %d (%s) NotStarted=%v, want %v", tc.event, i, r.Report.Command, r.NotStarted, tc.notStarted[i])
			}
			if r.NotStarted && (r.Report.Ran || r.Report.Skipped != tc.why) {
				t.Errorf("%s: run %d report %+v, want skipped %q", tc.event, i, r.Report, tc.why)
			}
			lateStarted = lateStarted || r.Report.Command == late && r.Report.Ran
		}
		_, err := os.Stat(sentinel)
		if (err == nil) != lateStarted {
			t.Errorf("%s: late.sh started=%v, its file there=%v", tc.event, lateStarted, err == nil)
		}
	}
}
