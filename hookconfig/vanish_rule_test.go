package hookconfig

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// dialectRuleEvents are event names of both dialects: ones where both,
// one or neither may fail closed.
var dialectRuleEvents = []string{"pre_tool_call", "post_tool_call", "PreToolUse", "PostToolUse", "on_session_start",
	"SessionStart", "Stop", "pre_gateway_dispatch", "subagent_stop"}

// TestDialectRuleAgreesWithReader: a fail_closed hook the YAML reader
// cannot read (in a list inside the event's list, or past a repository's
// cap) stops its file from loading exactly when, written readably, the
// reader reads it as a guard: both decide its dialect by its own
// dialect: key, else by where it stands (the event name's; Claude's in a
// matcher group).
func TestDialectRuleAgreesWithReader(t *testing.T) {
	for _, ev := range dialectRuleEvents {
		for _, d := range []string{"", "hermes", "claude", "Claude", "claude-code", "bogus", "[claude]"} {
			for _, grouped := range []bool{false, true} {
				dialectAgrees(t, ev, d, grouped)
			}
		}
	}
}

// dialectAgrees is TestDialectRuleAgreesWithReader for one hook under ev
// with dialect d ("": none), alone or in a matcher group; false: the
// readable form is not one entry.
func dialectAgrees(t *testing.T, ev, d string, grouped bool) bool {
	t.Helper()
	if e, _ := protocol.Lookup(ev); grouped && e.Can(protocol.CapContinue) && !e.Can(protocol.CapBlock) {
		// Known gap, the safe way: a group's handler on a stop event is
		// no guard (readClaudeHandler, as in Claude Code), but the walks
		// count it as they count the same hook outside a group, so its
		// unreadable twin refuses where it need only warn.
		return true
	}
	hook := "{command: x, fail_closed: true"
	if d != "" {
		hook += ", dialect: " + d
	}
	hook += "}"
	if grouped {
		hook = "{hooks: [" + hook + "]}"
	}
	cfg, err := parseConfig([]byte("hooks:\n  "+ev+": ["+hook+"]\n"), "/c.yaml", 0)
	checkNoPanic(t, err)
	if err != nil || len(cfg.Entries) != 1 {
		return false
	}
	guard := cfg.Entries[0].FailClosed
	_, err = parseConfig([]byte("hooks:\n  "+ev+": [["+hook+"]]\n"), "/c.yaml", 0)
	if refused := err != nil; refused != guard {
		t.Errorf("%s: [%s]: a guard read readably: %v; refused in a list: %v (%v)", ev, hook, guard, refused, err)
	}
	_, err = parseConfig([]byte("hooks:\n  post_llm_call: [{command: a}]\n  "+ev+": ["+hook+"]\n"), "/c.yaml", 1)
	if refused := err != nil; refused != guard {
		t.Errorf("%s: %s: a guard read readably: %v; refused past the cap: %v (%v)", ev, hook, guard, refused, err)
	}
	return true
}

// FuzzDialectRuleAgreesWithReader: TestDialectRuleAgreesWithReader for
// any plain dialect: value.
func FuzzDialectRuleAgreesWithReader(f *testing.F) {
	for _, d := range []string{"", "hermes", "claude", " CLAUDE ", "claude_code", "x"} {
		f.Add(uint8(0), d, false)
		f.Add(uint8(1), d, true)
	}
	f.Fuzz(func(t *testing.T, ev uint8, d string, grouped bool) {
		if strings.ContainsAny(d, "{}[],:#\n\r&*!|>'\"%@`?-\\\t") || strings.TrimSpace(d) != d {
			return // plain scalars only: the hook stays one mapping
		}
		dialectAgrees(t, dialectRuleEvents[int(ev)%len(dialectRuleEvents)], d, grouped)
	})
}

// TestDialectRuleAliasesOnce (attack): a repository naming one big
// anchored list thousands of times, under events whose rules differ
// (dialectRule: one dialect's hooks counted, or both, by either default),
// costs each anchored node one walk per rule class, not one per name:
// else 20,000 names × 10,000 nodes here.
func TestDialectRuleAliasesOnce(t *testing.T) {
	var s strings.Builder
	s.WriteString("big: &b [" + strings.Repeat("{command: x, matcher: y}, ", 2_000) + "]\nhooks:\n")
	for _, ev := range []string{"post_tool_call", "PostToolUse", "pre_tool_call", "PreToolUse"} {
		s.WriteString("  " + ev + ":\n" + strings.Repeat("    - *b\n    - [{hooks: *b}]\n", 2_500))
	}
	cfg, err := parseConfig([]byte(s.String()), "/c.yaml", 0)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.failClosedVisits > 300_000 {
		t.Fatalf("%d visits", cfg.failClosedVisits)
	}
	t.Logf("%d visits", cfg.failClosedVisits)
}
