package dispatcher

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A caller that runs several agents' hook files itself (VS Code: Claude
// Code's settings and Copilot's hook files) skips the entries of each, and
// with protocol.OwnRunElsewhere those of no agent's file too.
func TestSkipRunByList(t *testing.T) {
	pre, _ := protocol.Lookup("pre_tool_call")
	post, _ := protocol.Lookup("post_tool_call")
	skill, _ := protocol.Lookup("PreSkillShellCommand")
	entries := []*hookconfig.Entry{{Command: "own", Event: pre}, {Command: "c", RunBy: "claude", Event: pre},
		{Command: "g", RunBy: "copilot", Event: pre}, {Command: "x", RunBy: "codex", Event: pre}}
	postEntries := []*hookconfig.Entry{{Command: "own", Event: post}, {Command: "c", RunBy: "claude", Event: post},
		{Command: "g", RunBy: "copilot", Event: post}, {Command: "x", RunBy: "codex", Event: post}}
	for _, tc := range []struct {
		ev     *protocol.Event
		caller string
		want   string
	}{
		{pre, "", "own c g x"}, {pre, "claude", "own g x"}, {pre, "claude,copilot", "own x"},
		// A host's other call for the event runs the hooks of no agent's
		// file: left to it where they cannot refuse; a gating event's run
		// in both calls (no guard rests on a repository's file).
		{post, "copilot,claude," + protocol.OwnRunElsewhere, "x"},
		{pre, "copilot,claude," + protocol.OwnRunElsewhere, "own x"},
		// Claude Code runs its settings' PreToolUse hooks on PreToolUse
		// only: on a skill's shell command they are left to us.
		{skill, "claude", "own c g x"},
	} {
		got := ""
		es := entries
		if tc.ev == post {
			es = postEntries
		}
		for _, e := range skipRunBy(tc.ev, es, tc.caller) {
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

// TestSkipRunByKeepsManaged: the say-so that a host's other call runs the
// hooks of no agent's file (protocol.OwnRunElsewhere) comes from a hook
// file a repository can write; the administrator's entries (the managed
// config's, a managed bundle's) never rest on it: they run in this call
// too, twice at worst, on every event. The user's are still left to the
// other call where they cannot refuse.
func TestSkipRunByKeepsManaged(t *testing.T) {
	post, _ := protocol.Lookup("post_tool_call")
	entries := []*hookconfig.Entry{{Command: "user", Event: post},
		{Command: "managed", Event: post, Scope: consent.Scope{Managed: true}},
		{Command: "bundle", Event: post, ManagedBundle: true, Scope: consent.Scope{Bundle: "/etc/b"}},
		{Command: "managed-claude", RunBy: "claude", Event: post, Scope: consent.Scope{Managed: true}}}
	got := ""
	for _, e := range skipRunBy(post, entries, "claude,"+protocol.OwnRunElsewhere) {
		got += e.Command + " "
	}
	if want := "managed bundle "; got != want {
		t.Errorf("ran %q, want %q", got, want)
	}
}
