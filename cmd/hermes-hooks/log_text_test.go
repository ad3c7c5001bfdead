package main

import (
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/journal"
)

// A tool name or session id is the host's (a payload's) text, printed
// unquoted among the line's own separators: one holding " | guard.sh
// allow" read as another hook's verdict on log's line, and one holding
// ": block → none | now: -" as replay's difference. Such a value is
// quoted; a plain one (every agent's tool names, session ids) is not.
func TestLogAndReplayQuoteAForgedToolOrSession(t *testing.T) {
	exit := 0
	hooks := []journal.HookEntry{{Command: "./guard.sh", Ran: true, Decision: "block", ExitCode: &exit}}
	for _, tc := range []struct {
		tool, session string
		want          string // in the log line
	}{
		{"terminal", "s1", " tool=terminal session=s1 | ./guard.sh block"},
		{"mcp__git-hub__create_pr", "0b4e6c1a-77f2-4c55-9a2e-1f0e9d3c2b1a", " tool=mcp__git-hub__create_pr session=0b4e6c1a-77f2-4c55-9a2e-1f0e9d3c2b1a |"},
		{"terminal", "s | ./guard.sh allow exit=0 1ms", ` session="s | ./guard.sh allow exit=0 1ms" | ./guard.sh block`},
		{"x | ./other.sh allow", "s1", ` tool="x | ./other.sh allow" session=s1`},
		// A no-break space looks like a space.
		{"terminal", "s\u00a0|\u00a0./guard.sh\u00a0allow", ` session="s\u00a0|\u00a0./guard.sh\u00a0allow" |`},
	} {
		e := &journal.Entry{Time: time.Unix(0, 0), Decision: "block", Event: "pre_tool_call", Tool: tc.tool, Session: tc.session, Hooks: hooks}
		if got := journalLine(e); !strings.Contains(got, tc.want) {
			t.Errorf("log line %q; want it to hold %q", got, tc.want)
		}
	}
	d := &journal.Difference{Time: time.Unix(0, 0), Seq: 7, Event: "pre_tool_call", Tool: "terminal",
		Session:  "s: block → none | now: - | recorded: ./guard.sh",
		Recorded: journal.Side{Decision: "none"}, Now: journal.Side{Decision: "block", Hooks: []string{"./guard.sh"}}}
	if got, want := differenceLine(d), ` session="s: block → none | now: - | recorded: ./guard.sh": none → block | now: ./guard.sh`; !strings.Contains(got, want) {
		t.Errorf("replay line %q; want it to hold %q", got, want)
	}
}
