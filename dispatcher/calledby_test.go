package dispatcher

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A caller that runs several agents' hook files itself (VS Code: Claude
// Code's settings and Copilot's hook files) skips the entries of each, and
// with protocol.OwnRunElsewhere those of no agent's file too.
func TestSkipRunByList(t *testing.T) {
	pre, _ := protocol.Lookup("pre_tool_call")
	skill, _ := protocol.Lookup("PreSkillShellCommand")
	entries := []*hookconfig.Entry{{Command: "own", Event: pre}, {Command: "c", RunBy: "claude", Event: pre},
		{Command: "g", RunBy: "copilot", Event: pre}, {Command: "x", RunBy: "codex", Event: pre}}
	for _, tc := range []struct {
		ev     *protocol.Event
		caller string
		want   string
	}{
		{pre, "", "own c g x"}, {pre, "claude", "own g x"}, {pre, "claude,copilot", "own x"},
		// A host's other call for the event runs the hooks of no agent's file.
		{pre, "copilot,claude," + protocol.OwnRunElsewhere, "x"},
		// Claude Code runs its settings' PreToolUse hooks on PreToolUse
		// only: on a skill's shell command they are left to us.
		{skill, "claude", "own c g x"},
	} {
		got := ""
		for _, e := range skipRunBy(tc.ev, entries, tc.caller) {
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
