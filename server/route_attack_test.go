//go:build unix

package server

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/journal"
)

// Attack: any process that reaches the socket can name the agent call a
// dispatch answers (QueryAgent …), and the record's delivered says what
// that agent got. A caller naming a call that is not this dispatch's — an
// event of another name (Codex's PermissionRequest, where an ask is its
// own prompt, for a pre_tool_call, where it is a refusal), an agent or a
// host this version does not know, an event name of half a megabyte with
// terminal controls — gets a record of the decision alone: no delivered,
// no agent_event. None of it changes the decision. The forwarded `hook
// codex` a real agent makes is serve_ask_delivered.txtar.
func TestSpoofedAgentCallNamesNoDelivery(t *testing.T) {
	config := "hooks:\n  pre_tool_call:\n    - matcher: terminal\n      rule: 'true'\n      decision: ask\n      message: sure?\n"
	f := start(t, config, nil, nil)
	fields := `{"tool_name":"terminal","args":{"command":"ls"},"session_id":"s1"}`
	cases := []struct {
		name          string
		query         url.Values
		delivered     string
		agentEventSet bool
	}{
		{"the call as hook codex forwards it", url.Values{QueryAgent: {"codex"}, QueryAgentEvent: {"PreToolUse"}}, "block", true},
		{"another event's name", url.Values{QueryAgent: {"codex"}, QueryAgentEvent: {"PermissionRequest"}}, "", false},
		{"an agent this version does not know", url.Values{QueryAgent: {"nope"}, QueryAgentEvent: {"PreToolUse"}}, "", false},
		{"a host this version does not know", url.Values{QueryAgent: {"codex"}, QueryAgentEvent: {"PreToolUse"}, QueryAgentHost: {"nope"}}, "", false},
		{"an event name with controls, 500 KB", url.Values{QueryAgent: {"codex"}, QueryAgentEvent: {"\x1b]0;pwned\x07" + strings.Repeat("a", 500<<10)}}, "", false},
		{"no event name", url.Values{QueryAgent: {"codex"}}, "", false},
	}
	for _, c := range cases {
		out := f.outcome("pre_tool_call?"+c.query.Encode(), fields)
		if out["decision"] != "ask" {
			t.Errorf("%s: the outcome is %v: the query changed the decision", c.name, out)
		}
	}
	var got []journal.Entry
	if err := journal.Scan(filepath.Join(f.home, journal.DefaultFile), func(_ journal.Line, e *journal.Entry) bool {
		got = append(got, *e)
		return true
	}); err != nil {
		t.Fatal(err)
	}
	if len(got) != len(cases) {
		t.Fatalf("%d records for %d dispatches", len(got), len(cases))
	}
	for i, c := range cases {
		e := got[i]
		if e.Decision != "ask" || e.Delivered != c.delivered || (e.AgentEvent != "") != c.agentEventSet {
			t.Errorf("%s: record decision %q delivered %q (%q) agent_event %.40q; want ask, delivered %q, agent_event set %v",
				c.name, e.Decision, e.Delivered, e.DeliveredWhy, e.AgentEvent, c.delivered, c.agentEventSet)
		}
	}
}
