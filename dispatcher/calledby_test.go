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
	post, _ := protocol.Lookup("on_session_end") // an event no hook can refuse or stop
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
		// file: left to it where they cannot refuse; a hook that can
		// refuse or stop runs in both calls (none rests on a repository's
		// file).
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
	post, _ := protocol.Lookup("on_session_end")
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

// TestSkipRunByKeepsWhatMayRefuse: under a host's other call, a hook that
// can refuse or stop is never left to it: a prompt filter on pre_llm_call
// (it blocks), a post_tool_call hook (its block reaches the model), a
// fail_closed one on an event that cannot refuse (an attacker's re-read:
// a pre_llm_call guard ran in neither VS Code call).
func TestSkipRunByKeepsWhatMayRefuse(t *testing.T) {
	for _, tc := range []struct {
		event      string
		failClosed bool
		kept       bool
	}{
		{"pre_llm_call", false, true},
		{"post_tool_call", false, true},
		{"subagent_stop", false, true},
		{"on_session_end", true, true},
		{"on_session_end", false, false},
	} {
		ev, _ := protocol.Lookup(tc.event)
		e := &hookconfig.Entry{Command: "h", Event: ev, FailClosed: tc.failClosed}
		got := len(skipRunBy(ev, []*hookconfig.Entry{e}, "copilot,claude,"+protocol.OwnRunElsewhere)) == 1
		if got != tc.kept {
			t.Errorf("%s (fail_closed %v): kept %v, want %v", tc.event, tc.failClosed, got, tc.kept)
		}
	}
}
