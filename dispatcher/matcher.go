package dispatcher

import (
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/dlclark/regexp2"

	"github.com/hermes-hooks/hermes-hooks/agents"
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

// matcher is a compiled matcher; the dialect decides its rule.
//
// A regex matcher holds up to two engines. re is Go's RE2 (linear time, no
// allocation); slow is a backtracking engine (regexp2) set to the dialect's
// own regex language, for what RE2 cannot do or does differently. When
// both are set, re answers for plain input (printable ASCII, which every
// tool name is) and slow for the rest; see planPython and planJS for when
// RE2 is trusted.
type matcher struct {
	kind    matchKind
	literal string
	names   []string
	re      *regexp.Regexp
	slow    *regexp2.Regexp
}

// regexTimeout bounds one backtracking match. A pattern such as (a+)+\1b
// can take exponential time; Python and JavaScript would hang, a dispatch
// must not. A match that runs out of time counts as no match for Claude
// and falls back to literal equality for Hermes (the rule for a pattern
// that does not compile) — silently, as the matcher has no warning channel
// at match time; `hermes-hooks test` shows which hooks ran.
var regexTimeout = 100 * time.Millisecond

// compileMatcher builds the entry's matcher, reporting invalid patterns
// through warn.
//
// Hermes rule: the stripped pattern must match the whole tool name (Python
// re.fullmatch); a pattern Python's re would reject matches only itself,
// literally. Python syntax RE2 lacks (look-arounds, back-references,
// (?P=name), atomic groups, possessive quantifiers, (?x), {,n}, \Z …) runs
// on the backtracking engine, so it means what it means in Python.
//
// Claude rule: "", "*" and ".*" match everything; a pattern of only letters,
// digits, "_", "|", ",", "-" and spaces is a list of exact names (split on
// "|" and ","); anything else is an unanchored JavaScript regex (new
// RegExp(matcher), no flags), and one JavaScript rejects — (?i)bash,
// (?P<n>…) — never matches.
func compileMatcher(e *Entry, warn func(string)) matcher {
	m := e.Matcher
	if m == "" {
		return matcher{kind: matchAll}
	}
	if e.Dialect == protocol.Claude || e.Dialect == protocol.Cursor {
		// Cursor's matchers read as Claude Code's: names or a regex.
		if m == "*" || m == ".*" {
			return matcher{kind: matchAll}
		}
		if isNameList(m) {
			var names []string
			for _, part := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
				if p := strings.TrimSpace(part); p != "" {
					names = append(names, p)
				}
			}
			return matcher{kind: matchNames, names: names}
		}
		re, slow, err := compileRegex(m, m, planJS, regexp2.ECMAScript, func(s string) string { return s })
		if err != nil {
			warn("'" + m + "' is not a valid JavaScript regular expression (" + err.Error() + "); this hook will never match, as in Claude Code")
			return matcher{kind: matchNever}
		}
		return matcher{kind: matchSearch, re: re, slow: slow}
	}
	if regexp.QuoteMeta(m) == m {
		return matcher{kind: matchLiteral, literal: m}
	}
	re, slow, err := compileRegex(m, `^(?:`+m+`)$`, planPython, regexp2.None, func(s string) string { return `\A(?:` + s + `)\z` })
	if err != nil {
		warn("shell hook matcher '" + m + "' is invalid (" + err.Error() + ") — treating as literal equality")
		return matcher{kind: matchLiteral, literal: m}
	}
	return matcher{kind: matchFull, literal: m, re: re, slow: slow}
}

// compileRegex plans pattern for its dialect and compiles the engines the
// plan needs: RE2 on re2Expr (the pattern, anchored as the dialect wants)
// when RE2 means the same, regexp2 on the translated pattern otherwise.
func compileRegex(pattern, re2Expr string, plan func(string) (rxPlan, error), opts regexp2.RegexOptions, anchor func(string) string) (*regexp.Regexp, *regexp2.Regexp, error) {
	p, err := plan(pattern)
	if err != nil {
		return nil, nil, err
	}
	var re *regexp.Regexp
	if p.fast {
		if p.fastExpr != "" {
			re2Expr = p.fastExpr
		}
		re, _ = regexp.Compile(re2Expr) // nil: RE2 refuses it, the slow engine decides
	}
	if re != nil && p.exact {
		return re, nil, nil
	}
	if p.onlyFast {
		if re == nil {
			return nil, nil, rxError("the (?a) ASCII flag together with constructs RE2 lacks is not supported here")
		}
		return re, nil, nil
	}
	slow, err := regexp2.Compile(anchor(p.slowExpr), opts)
	if err != nil {
		if re != nil {
			// RE2 agrees on plain input and the translation failed: keep
			// RE2 for every input rather than drop a valid pattern.
			return re, nil, nil
		}
		msg := strings.TrimPrefix(err.Error(), "error parsing regexp: ")
		if i := strings.LastIndex(msg, " in `"); i > 0 {
			msg = msg[:i] // the translated pattern would only confuse
		}
		return nil, nil, rxError(msg)
	}
	slow.MatchTimeout = regexTimeout
	return re, slow, nil
}

func isNameList(m string) bool {
	for _, r := range m {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		case r == '_', r == '|', r == ',', r == '-', r == ' ':
		default:
			return false
		}
	}
	return true
}

func (m *matcher) matches(e *Entry, fields map[string]any, tools *protocol.ToolTable) bool {
	if m.kind == matchAll {
		return true
	}
	if e.Dialect == protocol.Cursor {
		// Compared with Cursor's tool name (Shell, Read …) on tool events;
		// elsewhere the matcher was dropped at load.
		s, _ := fields["tool_name"].(string)
		return m.anyMatches([]string{agents.CursorToolName(s, tools)})
	}
	if e.Dialect == protocol.Claude {
		q, ok := protocol.ClaudeMatchQuery(e.Event, fields, tools)
		if !ok {
			return true
		}
		candidates := []string{q}
		if e.Event.ClaudeMatchOn == "tool_name" {
			candidates = protocol.ClaudeToolNames(q)
		}
		return m.anyMatches(candidates)
	}
	// Hermes: compared against the Hermes tool name; none means no match.
	s, ok := fields["tool_name"].(string)
	if !ok {
		return false
	}
	s = tools.Hermes(s)
	if m.kind == matchLiteral {
		return s == m.literal
	}
	matched, done := m.regexMatch(s)
	if !done {
		return s == m.literal // timed out: the literal fallback
	}
	return matched
}

// anyMatches applies a Claude-rule matcher (names or search) to candidates.
func (m *matcher) anyMatches(candidates []string) bool {
	switch m.kind {
	case matchNames:
		for _, c := range candidates {
			for _, n := range m.names {
				if c == n {
					return true
				}
			}
		}
	case matchSearch:
		for _, c := range candidates {
			// A timed-out search counts as no match.
			if ok, done := m.regexMatch(c); ok && done {
				return true
			}
		}
	}
	return false
}

// regexMatch runs the engine that is exact for s; done is false when the
// backtracking engine ran out of time.
func (m *matcher) regexMatch(s string) (matched, done bool) {
	if m.re != nil && (m.slow == nil || isPlain(s)) {
		return m.re.MatchString(s), true
	}
	ok, err := matchRunes(m.slow, s)
	return ok, err == nil
}

// isPlain reports printable ASCII, the input on which the RE2 fast path of
// a planned pattern is exact.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// runeBufs recycles the []rune regexp2 matches on: its MatchString
// allocates one per call, and a firing that matches no hook must not
// allocate. regexp2 drops its reference to the slice when the match ends.
// (A free list rather than a sync.Pool, which the race detector makes drop
// items at random.)
var runeBufs struct {
	sync.Mutex
	free [][]rune
}

func matchRunes(re *regexp2.Regexp, s string) (bool, error) {
	var b []rune
	runeBufs.Lock()
	if n := len(runeBufs.free); n > 0 {
		b = runeBufs.free[n-1][:0]
		runeBufs.free = runeBufs.free[:n-1]
	}
	runeBufs.Unlock()
	for _, r := range s {
		b = append(b, r)
	}
	ok, err := re.MatchRunes(b)
	if cap(b) <= 1024 {
		runeBufs.Lock()
		if len(runeBufs.free) < 64 {
			runeBufs.free = append(runeBufs.free, b[:0])
		}
		runeBufs.Unlock()
	}
	return ok, err
}
