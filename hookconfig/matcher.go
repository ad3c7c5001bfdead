package hookconfig

import (
	"regexp"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pattern"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

type matchKind uint8

const (
	matchAll     matchKind = iota // no matcher: every firing
	matchLiteral                  // Hermes: exact tool name
	matchFull                     // Hermes: full-match regex
	matchNames                    // Claude: exact name list
	matchSearch                   // Claude: unanchored regex
	matchNever                    // Claude: invalid regex
)

// matcher is a compiled matcher; the dialect decides its rule. A regex
// matcher (full, search) runs rx, which gives the pattern its dialect's
// meaning (internal/pattern).
type matcher struct {
	kind    matchKind
	literal string
	names   []string
	rx      *pattern.Regex
}

// Fit is a matcher's answer for one firing.
type Fit uint8

const (
	FitNo  Fit = iota
	FitYes     // the entry applies
	// FitOutOfTime: the backtracking engine ran out of time
	// (pattern.MatchTimeout, pattern.DispatchBudget). The matcher cannot
	// tell whether the entry applies: the entry is selected and fails as a
	// hook that cannot start (UndecidedReason), so a fail_closed guard
	// blocks rather than being skipped on a guess.
	FitOutOfTime
)

// MatchBudget is what matching the entries of one firing shares: the
// backtracking time left (its zero value is a full budget). It lives on
// the dispatch's stack.
type MatchBudget struct {
	budget pattern.Budget
}

// Fit applies the entry's matcher to a firing (bound to tools:
// protocol.Firing.Bind); b (nil: none) bounds the backtracking time of all
// the firing's matchers together.
func (e *Entry) Fit(f *protocol.Firing, tools *protocol.ToolTable, b *MatchBudget) Fit {
	return e.match.fits(e, f, tools, b)
}

// UndecidedReason is why an entry selected with FitOutOfTime cannot start.
func (e *Entry) UndecidedReason() string {
	return "matcher '" + e.Matcher + "': cannot tell whether it matches this firing: the backtracking regex engine ran out of time (" +
		pattern.MatchTimeout.String() + " per match, " + pattern.DispatchBudget.String() + " per dispatch)"
}

// compileMatcher builds the entry's matcher, reporting invalid patterns
// through warn.
//
// Hermes rule: the stripped pattern must match the whole tool name (Python
// re.fullmatch); a pattern Python's re would reject matches only itself,
// literally. Python syntax RE2 lacks (look-arounds, back-references,
// (?P=name), atomic groups, possessive quantifiers, (?x), {,n}, \Z …) runs
// on the backtracking engine, so it means what it means in Python (see
// internal/pattern).
//
// Claude rule: "", "*" and ".*" match everything; a pattern of only letters,
// digits, "_", "|", ",", "-" and spaces is a list of exact names (split on
// "|" and ","), except on the events where Claude Code kept its older set
// (letters, digits, "_" and "|": StopFailure, FileChanged); anything else
// is an unanchored JavaScript regex (new RegExp(matcher), no flags), and
// one JavaScript rejects — (?i)bash, (?P<n>…) — never matches.
func compileMatcher(e *Entry, warn func(string)) matcher {
	m := e.Matcher
	if m == "" {
		return matcher{kind: matchAll}
	}
	if e.ClaudeShaped() {
		// A Codec's matchers (Cursor's too) read as Claude Code's: names
		// or a regex.
		if m == "*" || m == ".*" {
			return matcher{kind: matchAll}
		}
		// A Codec's own events keep the wide set: the narrower one is
		// Claude Code's, on its own events.
		if e.Codec == nil && e.Event.ClaudeNameList(m) || e.Codec != nil && protocol.IsClaudeNameList(m) {
			var names []string
			for _, part := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
				if p := strings.TrimSpace(part); p != "" {
					names = append(names, p)
				}
			}
			return matcher{kind: matchNames, names: names}
		}
		rx, err := pattern.CompileJS(m)
		if err != nil {
			warn("'" + m + "' is not a valid JavaScript regular expression (" + err.Error() + "); this hook will never match, as in Claude Code")
			return matcher{kind: matchNever}
		}
		return matcher{kind: matchSearch, rx: rx}
	}
	if regexp.QuoteMeta(m) == m {
		return matcher{kind: matchLiteral, literal: m}
	}
	rx, err := pattern.CompilePython(m)
	if err != nil {
		warn("shell hook matcher '" + m + "' is invalid (" + err.Error() + ") — treating as literal equality")
		return matcher{kind: matchLiteral, literal: m}
	}
	return matcher{kind: matchFull, literal: m, rx: rx}
}

// fits applies the matcher to a firing; b (nil: none) bounds the
// backtracking time.
func (m *matcher) fits(e *Entry, f *protocol.Firing, tools *protocol.ToolTable, b *MatchBudget) Fit {
	if m.kind == matchAll {
		return FitYes
	}
	one, toolNames, ok := m.subject(e, f, tools)
	if !ok {
		// Claude: nothing to compare with, every firing; Hermes: no tool
		// name, no match.
		return asFit(e.ClaudeShaped())
	}
	// An MCP tool is matched in both spellings, Claude Code's and Hermes'
	// (protocol.MCPToolNames): a guard written either way sees every
	// agent's calls of the tool.
	if mcp := protocol.MCPToolNames(one); mcp != nil && e.Event.Tool {
		return m.anyMatches(mcp, b)
	}
	if a, ok := e.Codec.(protocol.MatchAliases); ok && e.Event.Tool {
		// The agent's own aliases (Codex: apply_patch is also Write and
		// Edit), compared as it compares them.
		if names := a.MatchAliases(e.DeclaredAs, one); names != nil {
			return m.anyMatches(names, b)
		}
	}
	if toolNames {
		return m.anyMatches(protocol.ClaudeToolNames(one), b)
	}
	return m.anyMatches([]string{one}, b)
}

func asFit(ok bool) Fit {
	if ok {
		return FitYes
	}
	return FitNo
}

// subject is what the matcher is applied to for this firing: the string,
// or, when toolNames is set, each of protocol.ClaudeToolNames(s); ok is
// false when there is none (see matches for what that means). The caller
// expands the names: a slice returned from here would be allocated at
// every firing.
func (m *matcher) subject(e *Entry, f *protocol.Firing, tools *protocol.ToolTable) (s string, toolNames, ok bool) {
	if e.Codec != nil {
		// The agent's own subject (Cursor's or Gemini's tool names),
		// compared as is.
		// A codec that speaks Claude Code's payload (Codex's, Copilot's)
		// names tools as Claude Code does, legacy names included.
		q, ok := e.Codec.MatchSubject(e.DeclaredAs, e.Event, f.Fields, tools)
		return q, ok && e.Dialect == protocol.Claude && e.Event.ClaudeMatchOn == "tool_name", ok
	}
	if e.Dialect == protocol.Claude {
		q, ok := protocol.ClaudeMatchQuery(e.Event, f.Fields, tools)
		return q, ok && e.Event.ClaudeMatchOn == "tool_name", ok
	}
	// Hermes: compared against the Hermes tool name.
	if !f.HasTool {
		return "", false, false
	}
	return f.Tool, false, true
}

// anyMatches applies the matcher to candidates (each a spelling of the
// firing's tool): it fits when one candidate matches; when none does and
// some regex ran out of time, nobody can tell. A regex means what its
// dialect gives it: a Claude search, a Hermes full match.
func (m *matcher) anyMatches(candidates []string, f *MatchBudget) Fit {
	switch m.kind {
	case matchNames, matchLiteral:
		for _, c := range candidates {
			if m.kind == matchLiteral && c == m.literal || slices.Contains(m.names, c) {
				return FitYes
			}
		}
	case matchSearch, matchFull:
		out := FitNo
		for _, c := range candidates {
			ok, done := m.regexMatch(c, f)
			switch {
			case ok && done:
				return FitYes
			case !done:
				out = FitOutOfTime
			}
		}
		return out
	}
	return FitNo
}

// regexMatch runs the matcher's regex on s; done is false when it cannot
// tell (out of backtracking time). f nil: no per-firing budget.
func (m *matcher) regexMatch(s string, f *MatchBudget) (matched, done bool) {
	if f == nil {
		return m.rx.Match(s, nil)
	}
	return m.rx.Match(s, &f.budget)
}
