package dispatcher

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

func entryWith(t *testing.T, event, matcher string, dialect protocol.Dialect) (*Entry, []string) {
	t.Helper()
	ev, ok := protocol.Lookup(event)
	if !ok {
		t.Fatalf("unknown event %s", event)
	}
	e := &Entry{Event: ev, DeclaredAs: event, Command: "/h", Matcher: strings.TrimSpace(matcher), Dialect: dialect}
	var warnings []string
	e.match = compileMatcher(e, func(s string) { warnings = append(warnings, s) })
	return e, warnings
}

func toolFields(name any) map[string]any {
	if name == nil {
		return map[string]any{}
	}
	return map[string]any{"tool_name": name}
}

// Hermes checklist section C (TestMatcher).
func TestC_HermesMatcher(t *testing.T) {
	tools := protocol.DefaultTools()
	cases := []struct {
		name    string
		matcher string
		tool    any
		want    bool
	}{
		{"C25 no matcher terminal", "", "terminal", true},
		{"C25 no matcher write_file", "", "write_file", true},
		{"C26 exact", "terminal", "terminal", true},
		{"C26 exact other", "terminal", "web_search", false},
		{"C26 no substring", "term", "terminal", false},
		{"C27 alternation a", "terminal|file", "terminal", true},
		{"C27 alternation b", "terminal|file", "file", true},
		{"C27 alternation miss", "terminal|file", "web", false},
		{"C28 invalid literal", "foo[bar", "foo[bar", true},
		{"C28 invalid not prefix", "foo[bar", "foo", false},
		{"C29 null tool", "terminal", nil, false},
		{"C30 spaces stripped", " terminal ", "terminal", true},
		{"C31 newline stripped", "terminal\n", "terminal", true},
		{"C32 whitespace only", "   ", "anything", true},
		{"regex full match", "write_.*", "write_file", true},
		{"Claude tool name from host", "terminal", "Bash", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, _ := entryWith(t, "pre_tool_call", c.matcher, protocol.Hermes)
			if got := e.Matches(toolFields(c.tool), tools); got != c.want {
				t.Fatalf("matcher %q on %v = %v, want %v", c.matcher, c.tool, got, c.want)
			}
		})
	}
}

func TestC28_InvalidRegexWarns(t *testing.T) {
	_, w := entryWith(t, "pre_tool_call", "foo[bar", protocol.Hermes)
	if len(w) != 1 || !strings.Contains(w[0], "treating as literal equality") {
		t.Fatalf("warnings %q", w)
	}
}

// Claude reference §2.1 and the edge cases of §9 item 10.
func TestClaudeMatcherEdgeCases(t *testing.T) {
	tools := protocol.DefaultTools()
	cases := []struct {
		matcher string
		tool    string
		want    bool
	}{
		{"", "Bash", true},
		{"*", "Bash", true},
		{".*", "Anything", true},
		{"Edit", "Edit", true},
		{"Edit", "NotebookEdit", false},
		{"Edit.*", "NotebookEdit", true}, // unanchored regex
		{"Edit.*", "Edit", true},
		{"^Edit$", "NotebookEdit", false},
		{"mcp__memory", "mcp__memory__create", false}, // exact name list
		{"mcp__memory__.*", "mcp__memory__create", true},
		{"mcp__*", "mcp__memory__create", true}, // regex: "mcp_" then "_*"
		{"mcp__*", "Bash", false},
		{"Edit | Write", "Write", true}, // spaces trimmed in name lists
		{"Edit | Write", "Edit", true},
		{"Bash,PowerShell", "PowerShell", true},
		{"Bash,PowerShell", "Bash", true},
		{"code-reviewer", "code-reviewer", true},
		{"code-reviewer", "code-reviewer-2", false}, // hyphen: exact, not substring
		{"[", "[", false},                           // invalid regex never matches
		{"Bash", "terminal", true},                  // a Hermes host's terminal is Claude's Bash
		{"Task", "Agent", true},                     // Claude's own rename
		{"Agent", "delegate_task", true},
	}
	for _, c := range cases {
		e, _ := entryWith(t, "PreToolUse", c.matcher, protocol.Claude)
		if got := e.Matches(toolFields(c.tool), tools); got != c.want {
			t.Errorf("Claude matcher %q on %q = %v, want %v", c.matcher, c.tool, got, c.want)
		}
	}
	if _, w := entryWith(t, "PreToolUse", "[", protocol.Claude); len(w) != 1 || !strings.Contains(w[0], "never match") {
		t.Fatalf("invalid Claude regex must warn, got %q", w)
	}
}

func TestClaudeMatcherPerEventQuery(t *testing.T) {
	tools := protocol.DefaultTools()
	cases := []struct {
		event, matcher string
		fields         map[string]any
		want           bool
	}{
		{"SessionStart", "startup", map[string]any{}, true}, // source defaults to startup
		{"SessionStart", "resume", map[string]any{"source": "resume"}, true},
		{"SessionStart", "resume", map[string]any{"source": "clear"}, false},
		{"SubagentStop", "code-reviewer", map[string]any{"child_role": "code-reviewer"}, true},
		{"PreCompact", "manual", map[string]any{"trigger": "auto"}, false},
		{"UserPromptSubmit", "never", map[string]any{}, true}, // no match query: every group runs
	}
	for _, c := range cases {
		e, _ := entryWith(t, c.event, c.matcher, protocol.Claude)
		if e.Event.ClaudeMatchOn == "" {
			// parseMatcher drops it at load time; here the compiled matcher
			// still must not filter.
			e.match = matcher{kind: matchAll}
		}
		if got := e.Matches(c.fields, tools); got != c.want {
			t.Errorf("%s matcher %q on %v = %v, want %v", c.event, c.matcher, c.fields, got, c.want)
		}
	}
}
