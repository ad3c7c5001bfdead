package dispatcher

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/dlclark/regexp2"

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

// Python re constructs RE2 lacks are honoured (Hermes matchers are
// re.fullmatch); constructs Python rejects fall back to literal equality,
// whatever RE2 would have made of them.
func TestHermesMatcherPythonSemantics(t *testing.T) {
	tools := protocol.DefaultTools()
	cases := []struct {
		matcher string
		tool    string
		want    bool
		warns   bool
	}{
		{`(?!web_).*`, "terminal", true, false},
		{`(?!web_).*`, "web_search", false, false},
		{`(terminal)\1`, "terminalterminal", true, false},
		{`(terminal)\1`, "terminal", false, false},
		{`(?i)TERMINAL`, "terminal", true, false},
		{`(?i)TERMINAL`, "Terminal", true, false},
		{`(?P<t>term)inal`, "terminal", true, false},
		{`(?P<t>a)(?P=t)`, "aa", true, false},
		{`(?P<t>a)(?P=t)`, "ab", false, false},
		{`term(?=inal)inal`, "terminal", true, false},
		{`web_(?<=web_)search`, "web_search", true, false},
		{`(?<=x)terminal`, "terminal", false, false},
		{`(?x) termi nal  # the shell`, "terminal", true, false},
		{`termi{,1}nal`, "terminal", true, false},
		{`termi{,1}nal`, "termnal", true, false},
		{`terminal\Z`, "terminal", true, false},
		{`(?>term)inal`, "terminal", true, false},
		{`ter*+minal`, "terminal", true, false},
		{`(?#the shell)terminal`, "terminal", true, false},
		{`(?i:TERM)inal`, "TERMinal", true, false},
		{`(?i:TERM)inal`, "terminAL", false, false},
		{`(?s).*`, "terminal", true, false},
		{`\d+`, "123", true, false},
		{`\d+`, "١٢٣", true, false},      // Python's \d is Unicode; RE2's is ASCII
		{`\w+`, "tërminal", true, false}, // so is \w
		{`[\w-]+`, "mcp-tool_1", true, false},
		{`(?a)\d+`, "١٢٣", false, false}, // unless (?a)
		{`mcp__.*`, "mcp__fs__read", true, false},
		// Python rejects these: literal equality, with a warning.
		{`terminal(?i)`, "terminal", false, true}, // global flags not at the start (3.11+)
		{`terminal(?i)`, "terminal(?i)", true, true},
		{`\p{L}+`, "terminal", false, true}, // RE2 matched this before
		{`\p{L}+`, `\p{L}+`, true, true},
		{`(?<name>terminal)`, "terminal", false, true},
		{`terminal\z`, "terminal", false, true},
		{`(?U)terminal`, "terminal", false, true},
		{`\1(a)`, "aa", false, true},
		{`*terminal`, "terminal", false, true},
		{`^*terminal`, "terminal", false, true},
	}
	for _, c := range cases {
		e, w := entryWith(t, "pre_tool_call", c.matcher, protocol.Hermes)
		if got := e.Matches(toolFields(c.tool), tools); got != c.want {
			t.Errorf("Hermes matcher %q on %q = %v, want %v", c.matcher, c.tool, got, c.want)
		}
		if warned := len(w) > 0; warned != c.warns {
			t.Errorf("Hermes matcher %q: warnings %q, want warned=%v", c.matcher, w, c.warns)
		}
		if c.warns && !strings.Contains(strings.Join(w, ""), "treating as literal equality") {
			t.Errorf("Hermes matcher %q: warning %q", c.matcher, w)
		}
	}
}

// Claude matchers are JavaScript regexes: new RegExp(matcher), no flags.
func TestClaudeMatcherJavaScriptSemantics(t *testing.T) {
	tools := protocol.DefaultTools()
	cases := []struct {
		matcher string
		tool    string
		want    bool
		warns   bool
	}{
		{`(?i)bash`, "Bash", false, true}, // RE2 accepted it; JavaScript does not
		{`(?i)bash`, "bash", false, true},
		{`(?P<n>Bash)`, "Bash", false, true},
		{`Edit|Write(?#x)`, "Edit", false, true},
		{`(?>Bash)`, "Bash", false, true},
		{`^*Bash`, "Bash", false, true},
		{`(?<=x)*Bash`, "Bash", false, true},
		{`Ba(?=sh)`, "Bash", true, false},
		{`Ba(?=sh)`, "Bad", false, false},
		{`Bash(?=$)`, "Bash", true, false},
		{`(?<!Web)Fetch$`, "WebFetch", false, false},
		{`(?<!Web)Fetch$`, "Fetch", true, false},
		{`^Tool\d$`, "Tool1", true, false},
		{`^Tool\d$`, "Tool١", false, false}, // JavaScript's \d is ASCII
		{`^Tool\s`, "Tool\u00a0x", true, false},
		{`(?<t>Ba)sh\k<t>`, "BashBa", true, false},
		{`(?<$t>Ba)sh\k<$t>`, "BashBa", true, false},
		{`\p{L}`, "Bash", false, false}, // \p is p without the u flag; RE2 matched any letter
		{`^\p{L}$`, "p{L}", true, false},
		{`Bash\z`, "Bash", false, false}, // \z is z
		{`Bash\z`, "Bashz", true, false},
		{`^[^]+$`, "Bash", true, false},
		{`^[]$`, "Bash", false, false},
		{`Bash{,1}`, "Bash", false, false}, // {,1} is literal text in JavaScript
		{`^Bash{1,2}$`, "Bashh", true, false},
		{`^\x42ash$`, "Bash", true, false},
		{`^\u0042ash$`, "Bash", true, false},
		{`^[\d-z]+$`, "-z9", true, false},
		{`(?i:bash)`, "Bash", true, false}, // ES2025 modifiers
		{`mcp__.*__write.*`, "mcp__fs__write_file", true, false},
		{`^mcp__`, "mcp__fs__write_file", true, false},
		{`.`, "Bash", true, false},
		{`Bash$`, "Bash", true, false},
		{`^Ba.*`, "Bash", true, false},
	}
	for _, c := range cases {
		e, w := entryWith(t, "PreToolUse", c.matcher, protocol.Claude)
		if got := e.Matches(toolFields(c.tool), tools); got != c.want {
			t.Errorf("Claude matcher %q on %q = %v, want %v", c.matcher, c.tool, got, c.want)
		}
		if warned := len(w) > 0; warned != c.warns {
			t.Errorf("Claude matcher %q: warnings %q, want warned=%v", c.matcher, w, c.warns)
		}
		if c.warns && !strings.Contains(strings.Join(w, ""), "never match") {
			t.Errorf("Claude matcher %q: warning %q", c.matcher, w)
		}
	}
}

// RE2 stays in charge wherever it means the same thing; the backtracking
// engine is only built when needed.
func TestMatcherEngineChoice(t *testing.T) {
	cases := []struct {
		matcher        string
		dialect        protocol.Dialect
		wantRE, wantBT bool
	}{
		{"terminal|write_.*", protocol.Hermes, true, false},
		{"write_[a-z]+", protocol.Hermes, true, false},
		{`(?i)TERMINAL`, protocol.Hermes, true, true}, // RE2 for ASCII names only
		{`\d+`, protocol.Hermes, true, true},
		{`(?P<t>term)inal`, protocol.Hermes, true, false},
		{`(?!web_).*`, protocol.Hermes, false, true},
		{`(terminal)\1`, protocol.Hermes, false, true},
		{"^Ba.*", protocol.Claude, true, true}, // . stops at \r in JavaScript
		{"^Bash$", protocol.Claude, true, false},
		{`^Tool\d$`, protocol.Claude, true, false},
		{"mcp__[a-z]+__write", protocol.Claude, true, false},
		{"Ba(?=sh)", protocol.Claude, false, true},
		{`\p{L}`, protocol.Claude, false, true},
	}
	for _, c := range cases {
		ev := "pre_tool_call"
		if c.dialect == protocol.Claude {
			ev = "PreToolUse"
		}
		e, w := entryWith(t, ev, c.matcher, c.dialect)
		if len(w) > 0 {
			t.Errorf("%q: %q", c.matcher, w)
		}
		if gotRE, gotBT := e.match.re != nil, e.match.slow != nil; gotRE != c.wantRE || gotBT != c.wantBT {
			t.Errorf("%q (%v): RE2 %v backtracking %v, want %v %v", c.matcher, c.dialect, gotRE, gotBT, c.wantRE, c.wantBT)
		}
	}
}

// Catastrophic backtracking is cut off, and a matcher cut off cannot tell:
// it selects its entry (which then fails as a hook that cannot start), in
// both dialects. The firing's budget bounds many such matchers together:
// once it is spent, the rest are not run at all.
func TestBacktrackingTimesOut(t *testing.T) {
	old, oldBudget := regexTimeout, backtrackBudget
	regexTimeout, backtrackBudget = 20*time.Millisecond, 50*time.Millisecond
	defer func() { regexTimeout, backtrackBudget = old, oldBudget }()
	tools := protocol.DefaultTools()
	evil := strings.Repeat("a", 40) + "c"

	e, w := entryWith(t, "pre_tool_call", `(a+)+\1b`, protocol.Hermes)
	if len(w) > 0 || e.match.slow == nil {
		t.Fatalf("warnings %q, engine %+v", w, e.match)
	}
	start := time.Now()
	if _, done := e.match.regexMatch(evil, nil); done {
		t.Fatal("expected the match to time out")
	}
	f := newFiring()
	if got := e.match.fits(e, toolFields(evil), tools, &f); got != fitOutOfTime {
		t.Fatalf("Hermes: a timed-out match = %v, want fitOutOfTime", got)
	}
	if !e.Matches(toolFields(evil), tools) {
		t.Fatal("Hermes: a timed-out match does not select its entry")
	}
	c, _ := entryWith(t, "PreToolUse", `^(a+)+\1b`, protocol.Claude)
	f = newFiring()
	if got := c.match.fits(c, toolFields(evil), tools, &f); got != fitOutOfTime {
		t.Fatalf("Claude: a timed-out match = %v, want fitOutOfTime", got)
	}
	// A spent budget runs no backtracking match: not even one that
	// would answer at once. (From here on the bounds are hang guards: a
	// match that answers at once must answer however loaded the machine,
	// and 20 ms is one scheduling delay on a busy one.)
	timedOut := time.Since(start)
	regexTimeout, backtrackBudget = time.Minute, time.Minute
	f.left = 0
	quick, _ := entryWith(t, "pre_tool_call", `(?=t)terminal`, protocol.Hermes)
	if got := quick.match.fits(quick, toolFields("terminal"), tools, &f); got != fitOutOfTime {
		t.Fatalf("spent budget: %v, want fitOutOfTime", got)
	}
	f = newFiring()
	if got := quick.match.fits(quick, toolFields("terminal"), tools, &f); got != fitYes {
		t.Fatalf("budget left: %v, want fitYes", got)
	}
	// Without the bounds, (a+)+\1b on 40 a's runs for hours.
	if timedOut > time.Minute {
		t.Fatalf("timeouts took %v", timedOut)
	}
}

// A firing that a backtracking matcher rejects allocates nothing, in the
// matcher and through a whole dispatch.
func TestBacktrackingNoMatchAllocatesNothing(t *testing.T) {
	tools := protocol.DefaultTools()
	h, _ := entryWith(t, "pre_tool_call", `(?!terminal).*`, protocol.Hermes)
	c, _ := entryWith(t, "PreToolUse", `Ba(?=x)`, protocol.Claude)
	fields := toolFields("terminal")
	if h.match.slow == nil || h.match.re != nil || c.match.slow == nil {
		t.Fatal("expected backtracking-only matchers")
	}
	allocs := testing.AllocsPerRun(200, func() {
		if h.Matches(fields, tools) || c.Matches(fields, tools) {
			t.Fatal("matched")
		}
	})
	if allocs != 0 {
		t.Fatalf("no-match via regexp2 allocated %v times", allocs)
	}
	yml := "hooks:\n  pre_tool_call:\n    - command: /bin/h1\n      matcher: '(?!terminal).*'\n  PreToolUse:\n    - command: /bin/h2\n      matcher: 'Ba(?=x)'\n"
	d := dispatcherFor(t, yml)
	ctx := context.Background()
	allocs = testing.AllocsPerRun(200, func() {
		if _, err := d.Dispatch(ctx, "pre_tool_call", fields); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("no-match dispatch through regexp2 matchers allocated %v times", allocs)
	}
}

// The planners' verdicts on patterns the target engine rejects.
func TestRegexPlannersReject(t *testing.T) {
	for _, p := range []string{
		`\p{L}`, `\z`, `\Q.\E`, `\k<a>`, `(?<n>a)`, `(?'n'a)`, `a(?i)`, `(?L)a`, `(?au)a`, `(?U)a`,
		`(?-i)a`, `(?P<1a>x)`, `(?P<a>x)(?P<a>y)`, `(?P=a)`, `(a)(?P=b)`, `(a\1)`, `\2(a)`, `a**`, `a{2,1}`,
		`[a`, `(a`, `a)`, `\x4`, `\u12`, `\8`, `[\8]`, `[\d-z]`, `\N{DASH}`, `(?(2)a|b)`, `(?#x`, `\`,
	} {
		if _, err := planPython(p); err == nil {
			t.Errorf("planPython(%q) accepted a pattern Python's re rejects", p)
		}
	}
	for _, p := range []string{
		`(?i)a`, `(?P<n>a)`, `(?#x)`, `(?>a)`, `(?'n'a)`, `(?-:a)`, `(?ii:a)`, `*a`, `a**`, `^*`, `$+`, `\b*`,
		`(?<=a)+`, `a{2,1}`, `{2}`, `[a`, `(a`, `a)`, `\`, `(?<1a>x)`, `(?<a>x)(?<a>y)`, `(?<a>x)\k<b>`, `(?<a>x)\k`,
	} {
		if _, err := planJS(p); err == nil {
			t.Errorf("planJS(%q) accepted a pattern JavaScript rejects", p)
		}
	}
	for _, p := range []string{`(?i:a)`, `(?i-m:a)`, `\k`, `\p`, `a{`, `a{,2}`, `]`, `}`, `[]`, `[^]`, `\1(a)`, `\8`, `(?<$>x)`, `\c`, `[\c1]`} {
		if _, err := planJS(p); err != nil {
			t.Errorf("planJS(%q): %v", p, err)
		}
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

// FuzzMatcherRegex compiles any pattern in both dialects (never panics)
// and checks the claims the RE2 fast path rests on: where a plan says RE2
// means the same as the dialect, RE2 and the backtracking engine (given the
// translated pattern) agree — on plain input, and on every input when the
// plan says exact.
//
//	go test -run='^$' -fuzz='^FuzzMatcherRegex$' -fuzztime=60s ./dispatcher/
func FuzzMatcherRegex(f *testing.F) {
	for _, s := range []string{
		`(?!web_).*`, `(terminal)\1`, `(?i)TERMINAL`, `(?P<t>a)(?P=t)`, `[\w-]+`, `a{,3}`, `(?x) a # b`,
		`Ba(?=sh)`, `(?i)bash`, `^Tool\d$`, `[^]`, `\p{L}`, `mcp__.*__write.*`, `^[\d-z]+$`, `a*+b`, `[]a]`, `\s+`,
		`a.c`, `^a|b$`, `[^a-c]x`, `\bfoo\b`, `a{2,3}?`, `(?s:.)`, `[.]`, `\.\*`, `(?:ab)+`, `0{00}`, `\B`,
	} {
		f.Add(s, "terminal")
		f.Add(s, "a\nb\r\u00e9")
	}
	f.Fuzz(func(t *testing.T, pattern, input string) {
		if len(pattern) > 200 {
			return
		}
		for _, d := range []protocol.Dialect{protocol.Hermes, protocol.Claude} {
			ev, _ := protocol.Lookup("pre_tool_call")
			compileMatcher(&Entry{Event: ev, Matcher: pattern, Dialect: d}, func(string) {})

			plan, opts, re2Expr, anchor := planPython, regexp2.None, `^(?:`+pattern+`)$`, func(s string) string { return `\A(?:` + s + `)\z` }
			if d == protocol.Claude {
				plan, opts, re2Expr, anchor = planJS, regexp2.ECMAScript, pattern, func(s string) string { return s }
			}
			p, err := plan(pattern)
			if err != nil || !p.fast || p.onlyFast {
				continue
			}
			if p.fastExpr != "" {
				re2Expr = p.fastExpr
			}
			re, err1 := regexp.Compile(re2Expr)
			slow, err2 := regexp2.Compile(anchor(p.slowExpr), opts)
			if err1 != nil || err2 != nil {
				continue
			}
			slow.MatchTimeout = 50 * time.Millisecond
			if !p.exact && !isPlain(input) {
				continue
			}
			got, err := matchRunes(slow, input)
			if err == nil && got != re.MatchString(input) {
				t.Fatalf("%v %q on %q: RE2 %v, backtracking %v (exact %v, slow expr %q)", d, pattern, input, !got, got, p.exact, p.slowExpr)
			}
		}
	})
}
