package hookconfig

import (
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/pattern"
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
		// Claude Code's other file editors and shells (issue 31, item 2).
		{"MultiEdit is a patch", "patch|write_file", "MultiEdit", true},
		{"NotebookEdit is a patch", "patch", "NotebookEdit", true},
		{"PowerShell is a terminal", "terminal", "PowerShell", true},
		// MCP tools in either spelling.
		{"MCP Hermes regex, Claude call", "mcp_github_.*", "mcp__github__create_issue", true},
		{"MCP Hermes literal, Claude call", "mcp_github_create_issue", "mcp__github__create_issue", true},
		{"MCP Hermes regex, hyphenated server", "mcp_brave_search_.*", "mcp__brave-search__search", true},
		{"MCP Hermes regex, other server", "mcp_github_.*", "mcp__gitlab__create_issue", false},
		{"MCP Claude spelling in Hermes config", "mcp__github__.*", "mcp_github_create_issue", true},
		{"MCP Claude literal in Hermes config", "mcp__github__create_issue", "mcp_github_create_issue", true},
		{"MCP Hermes regex, Hermes call", "mcp_github_.*", "mcp_github_create_issue", true},
		{"MCP not a prefix", "mcp_git", "mcp__github__create_issue", false},
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
		// MCP tools in either spelling (issue 31, item 2).
		{"mcp__slack__.*", "mcp_slack_post_message", true},
		{"mcp__slack__post_message", "mcp_slack_post_message", true},
		{"mcp_slack_.*", "mcp__slack__post_message", true},
		{"mcp_slack_post_message", "mcp__slack__post_message", true},
		{"mcp__slack__.*", "mcp_slackbot_post", false},
		{"mcp__slack__.*", "mcp__slack__post", true},
		// Claude's own names stay Claude's: Edit is not MultiEdit.
		{"Edit", "MultiEdit", false},
		{"Bash", "PowerShell", false},
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

// The dialect's fallback for a pattern its regex engine rejects: Hermes
// compares literally (with a warning), Claude never matches. Which
// patterns are rejected, and what the valid ones mean, is
// internal/pattern's (its TestPythonSemantics, TestJSSemantics).
func TestMatcherInvalidRegexFallback(t *testing.T) {
	tools := protocol.DefaultTools()
	cases := []struct {
		dialect protocol.Dialect
		matcher string
		tool    string
		want    bool
		warns   bool
	}{
		{protocol.Hermes, `(?!web_).*`, "terminal", true, false},
		{protocol.Hermes, `(?!web_).*`, "web_search", false, false},
		{protocol.Hermes, `\d+`, "١٢٣", true, false},
		{protocol.Hermes, `terminal(?i)`, "terminal", false, true}, // global flags not at the start (3.11+)
		{protocol.Hermes, `terminal(?i)`, "terminal(?i)", true, true},
		{protocol.Hermes, `\p{L}+`, "terminal", false, true}, // RE2 matched this before
		{protocol.Hermes, `\p{L}+`, `\p{L}+`, true, true},
		{protocol.Hermes, `*terminal`, "*terminal", true, true},
		{protocol.Claude, `Ba(?=sh)`, "Bash", true, false},
		{protocol.Claude, `\p{L}`, "Bash", false, false},
		{protocol.Claude, `(?i)bash`, "Bash", false, true}, // RE2 accepted it; JavaScript does not
		{protocol.Claude, `(?i)bash`, "(?i)bash", false, true},
		{protocol.Claude, `(?P<n>Bash)`, "Bash", false, true},
	}
	for _, c := range cases {
		ev, fallback := "pre_tool_call", "treating as literal equality"
		if c.dialect == protocol.Claude {
			ev, fallback = "PreToolUse", "never match"
		}
		e, w := entryWith(t, ev, c.matcher, c.dialect)
		if got := e.Matches(toolFields(c.tool), tools); got != c.want {
			t.Errorf("%v matcher %q on %q = %v, want %v", c.dialect, c.matcher, c.tool, got, c.want)
		}
		if warned := len(w) > 0; warned != c.warns {
			t.Errorf("%v matcher %q: warnings %q, want warned=%v", c.dialect, c.matcher, w, c.warns)
		}
		if c.warns && !strings.Contains(strings.Join(w, ""), fallback) {
			t.Errorf("%v matcher %q: warning %q", c.dialect, c.matcher, w)
		}
	}
	_, w := entryWith(t, "pre_tool_call", "(a", protocol.Hermes)
	if want := "shell hook matcher '(a' is invalid (missing ), unterminated subpattern) — treating as literal equality"; len(w) != 1 || w[0] != want {
		t.Errorf("warnings %q, want %q", w, want)
	}
}

// A matcher cut off by the backtracking engine's time limit cannot tell:
// it selects its entry (which then fails as a hook that cannot start), in
// both dialects, and the firing says why.
func TestBacktrackingTimesOut(t *testing.T) {
	old, oldBudget := pattern.MatchTimeout, pattern.DispatchBudget
	pattern.MatchTimeout, pattern.DispatchBudget = 20*time.Millisecond, 50*time.Millisecond
	defer func() { pattern.MatchTimeout, pattern.DispatchBudget = old, oldBudget }()
	tools := protocol.DefaultTools()
	evil := strings.Repeat("a", 40) + "c"

	e, w := entryWith(t, "pre_tool_call", `(a+)+\1b`, protocol.Hermes)
	if len(w) > 0 || e.match.kind != matchFull {
		t.Fatalf("warnings %q, matcher %+v", w, e.match)
	}
	start := time.Now()
	if _, done := e.match.regexMatch(evil, nil); done {
		t.Fatal("expected the match to time out")
	}
	var f MatchBudget
	if got := e.match.fits(e, bound(e, toolFields(evil), tools), tools, &f); got != FitOutOfTime {
		t.Fatalf("Hermes: a timed-out match = %v, want FitOutOfTime", got)
	}
	if !e.Matches(toolFields(evil), tools) {
		t.Fatal("Hermes: a timed-out match does not select its entry")
	}
	c, _ := entryWith(t, "PreToolUse", `^(a+)+\1b`, protocol.Claude)
	f = MatchBudget{}
	if got := c.match.fits(c, bound(c, toolFields(evil), tools), tools, &f); got != FitOutOfTime {
		t.Fatalf("Claude: a timed-out match = %v, want FitOutOfTime", got)
	}
	if why := e.UndecidedReason(); !strings.Contains(why, "cannot tell whether it matches this firing") || !strings.Contains(why, "20ms per match, 50ms per dispatch") {
		t.Fatalf("why: %q", why)
	}
	// Without the bounds, (a+)+\1b on 40 a's runs for hours: this is a
	// hang guard, not a speed bound.
	if d := time.Since(start); d > time.Minute {
		t.Fatalf("timeouts took %v", d)
	}
	// The firing's budget is spent now: the next backtracking matcher is
	// not run, not even one that would answer at once. (That one gets a
	// minute per match: answering at once must hold however loaded the
	// machine, and 20 ms is one scheduling delay on a busy one.)
	pattern.MatchTimeout = time.Minute
	quick, _ := entryWith(t, "pre_tool_call", `(?=t)terminal`, protocol.Hermes)
	if got := quick.match.fits(quick, bound(quick, toolFields("terminal"), tools), tools, &f); got != FitOutOfTime {
		t.Fatalf("spent budget: %v, want FitOutOfTime", got)
	}
	f = MatchBudget{}
	if got := quick.match.fits(quick, bound(quick, toolFields("terminal"), tools), tools, &f); got != FitYes {
		t.Fatalf("budget left: %v, want FitYes", got)
	}
}

func BenchmarkMatcherBacktracking(b *testing.B) {
	tools := protocol.DefaultTools()
	fields := map[string]any{"tool_name": "terminal"}
	cases := []struct {
		name, event, matcher string
		dialect              protocol.Dialect
		want                 bool
	}{
		{"hermes_lookahead_match", "pre_tool_call", "(?!web_).*", protocol.Hermes, true},
		{"hermes_lookahead_nomatch", "pre_tool_call", "(?!terminal).*", protocol.Hermes, false},
		{"hermes_backref_nomatch", "pre_tool_call", `(term)\1`, protocol.Hermes, false},
		{"claude_lookahead_nomatch", "PreToolUse", "Ba(?=x)", protocol.Claude, false},
		{"claude_lookbehind_match", "PreToolUse", "(?<=Ba)sh", protocol.Claude, true},
	}
	for _, c := range cases {
		ev, _ := protocol.Lookup(c.event)
		e := &Entry{Event: ev, Command: "/h", Matcher: c.matcher, Dialect: c.dialect}
		e.match = compileMatcher(e, func(w string) { b.Fatal(w) })
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				if e.Matches(fields, tools) != c.want {
					b.Fatal("unexpected result")
				}
			}
		})
	}
}

// A firing that a backtracking matcher rejects allocates nothing, in the
// matcher and through a whole dispatch. (The matchers below run on
// regexp2 only: internal/pattern's TestEngineChoice pins that for such
// look-aheads.)
func TestBacktrackingNoMatchAllocatesNothing(t *testing.T) {
	tools := protocol.DefaultTools()
	h, _ := entryWith(t, "pre_tool_call", `(?!terminal).*`, protocol.Hermes)
	c, _ := entryWith(t, "PreToolUse", `Ba(?=x)`, protocol.Claude)
	fields := toolFields("terminal")
	if h.match.kind != matchFull || c.match.kind != matchSearch {
		t.Fatal("expected regex matchers")
	}
	allocs := testing.AllocsPerRun(200, func() {
		if h.Matches(fields, tools) || c.Matches(fields, tools) {
			t.Fatal("matched")
		}
	})
	if allocs != 0 {
		t.Fatalf("no-match via regexp2 allocated %v times", allocs)
	}
}

// bound is the firing of fields on e's event, bound to tools.
func bound(e *Entry, fields map[string]any, tools *protocol.ToolTable) *protocol.Firing {
	f := protocol.NewFiring(e.Event, "", fields)
	f.Bind(tools, "", nil)
	return &f
}

// Claude Code widened its exact-name matchers to "-", "," and spaces
// (v2.1.191, v2.1.195) on every event but StopFailure and FileChanged,
// which keep the older rule: only letters, digits, "_" and "|" make a name
// list there; anything else is an unanchored regex (the spec's §2.1, rule
// 4). So a comma list on StopFailure matches only the literal text, and a
// hyphenated FileChanged matcher also matches a longer basename.
func TestClaudeMatcherNarrowNameEvents(t *testing.T) {
	tools := protocol.DefaultTools()
	for _, c := range []struct {
		event, matcher string
		fields         map[string]any
		want           bool
	}{
		{"StopFailure", "rate_limit,server_error", map[string]any{"error": "rate_limit"}, false},
		{"StopFailure", "rate_limit,server_error", map[string]any{"error": "server_error"}, false},
		{"StopFailure", "rate_limit,server_error", map[string]any{"error": "x rate_limit,server_error"}, true},
		{"StopFailure", "rate_limit|server_error", map[string]any{"error": "server_error"}, true},
		{"StopFailure", "rate_limit|server_error", map[string]any{"error": "rate_limit_2"}, false}, // still a name list
		{"StopFailure", "rate limit", map[string]any{"error": "a rate limit hit"}, true},           // a space: a regex
		{"FileChanged", "my-notes", map[string]any{"file_path": "/p/old-my-notes"}, true},
		{"FileChanged", "my-notes", map[string]any{"file_path": "/p/my-notes"}, true},
		{"FileChanged", "notes", map[string]any{"file_path": "/p/my-notes"}, false}, // a name: exact
		{"FileChanged", "notes|todo", map[string]any{"file_path": "/p/todo"}, true},
		{"FileChanged", "notes, todo", map[string]any{"file_path": "/p/todo"}, false},
		// Every other event keeps the wide set: a hyphen or a comma is a name list.
		{"SubagentStop", "code-reviewer", map[string]any{"agent_type": "senior-code-reviewer"}, false},
		{"PreToolUse", "Bash,Write", map[string]any{"tool_name": "Write"}, true},
	} {
		e, w := entryWith(t, c.event, c.matcher, protocol.Claude)
		if len(w) != 0 {
			t.Errorf("%s %q: warnings %q", c.event, c.matcher, w)
		}
		if got := e.Matches(c.fields, tools); got != c.want {
			t.Errorf("%s matcher %q on %v = %v, want %v", c.event, c.matcher, c.fields, got, c.want)
		}
	}
}
