package dispatcher

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Which process hooks run again on a rewritten call: managed guards that
// ran to their end and neither refused nor rewrote the call themselves.
func TestManagedRejudges(t *testing.T) {
	zero := 0
	managedEntry := &hookconfig.Entry{Scope: consent.Scope{Managed: true}}
	ran := func(c *protocol.Contribution) *protocol.HookReport {
		return &protocol.HookReport{Ran: true, ExitCode: &zero, Contribution: c}
	}
	for _, tc := range []struct {
		name string
		e    *hookconfig.Entry
		rep  *protocol.HookReport
		want bool
	}{
		{"managed, no objection", managedEntry, ran(nil), true},
		{"managed, context only", managedEntry, ran(&protocol.Contribution{Context: "policy"}), true},
		{"the user's own guard", &hookconfig.Entry{}, ran(nil), false},
		{"managed bundle", &hookconfig.Entry{ManagedBundle: true}, ran(nil), true},
		{"managed, blocked already", managedEntry, ran(&protocol.Contribution{Decision: protocol.DecisionBlock}), false},
		{"managed, asked already", managedEntry, ran(&protocol.Contribution{Decision: protocol.DecisionAsk}), false},
		{"managed, its own rewrite", managedEntry, ran(&protocol.Contribution{Args: map[string]any{"command": "x"}}), false},
		{"managed, timed out", managedEntry, &protocol.HookReport{Ran: true, TimedOut: true}, false},
		{"managed, did not start", managedEntry, &protocol.HookReport{Error: "command not found"}, false},
		{"managed async", &hookconfig.Entry{Scope: consent.Scope{Managed: true}, Async: true}, ran(nil), false},
	} {
		if got := managedRejudges(tc.e, tc.rep); got != tc.want {
			t.Errorf("%s: managedRejudges = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A refusal on the second run replaces the first decision and says which
// call it refused; the first run's context stands. No refusal: the first
// report stands, with a note.
func TestManagedAgain(t *testing.T) {
	first := protocol.HookReport{Command: "./g.sh", ElapsedMS: 1, Contribution: &protocol.Contribution{Context: "policy"}}
	next := protocol.HookReport{Command: "./g.sh", ElapsedMS: 2, Contribution: &protocol.Contribution{Decision: protocol.DecisionBlock, Message: "no", Args: map[string]any{"a": 1}}}
	rep := first
	managedAgain(&rep, &next, "./rw.sh")
	c := rep.Contribution
	if c == nil || c.Decision != protocol.DecisionBlock || c.Message != "no (judged on the call as rewritten by ./rw.sh)" || c.Context != "policy" || c.Args != nil || !rep.Rejudged || rep.ElapsedMS != 3 {
		t.Errorf("after a refusal: %+v %+v", rep, c)
	}
	rep = first
	quiet := protocol.HookReport{ElapsedMS: 2, Contribution: &protocol.Contribution{Args: map[string]any{"a": 1}}}
	managedAgain(&rep, &quiet, "./rw.sh")
	if rep.Contribution != first.Contribution || rep.Rejudged || rep.Note != "run again on the call as rewritten by ./rw.sh: no objection" {
		t.Errorf("without a refusal: %+v", rep)
	}
}
