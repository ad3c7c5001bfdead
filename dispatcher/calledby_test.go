package dispatcher

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// A caller that runs several agents' hook files itself (VS Code: Claude
// Code's settings and Copilot's hook files) skips the entries of each, and
// with OwnRunElsewhere those of no agent's file too.
func TestSkipRunByList(t *testing.T) {
	entries := []*hookconfig.Entry{{Command: "own"}, {Command: "c", RunBy: "claude"}, {Command: "g", RunBy: "copilot"}, {Command: "x", RunBy: "codex"}}
	for _, tc := range []struct {
		caller string
		want   string
	}{
		{"", "own c g x"}, {"claude", "own g x"}, {"claude,copilot", "own x"},
		// A host's other call for the event runs the hooks of no agent's file.
		{"copilot,claude," + OwnRunElsewhere, "x"},
	} {
		got := ""
		for _, e := range skipRunBy(entries, tc.caller) {
			if got != "" {
				got += " "
			}
			got += e.Command
		}
		if got != tc.want {
			t.Errorf("caller %q: ran %q, want %q", tc.caller, got, tc.want)
		}
	}
}
