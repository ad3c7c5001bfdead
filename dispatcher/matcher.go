package dispatcher

import (
	"github.com/dlclark/regexp2"
	"regexp"
	"strings"
	"sync"
	"time"

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

// regexTimeout bounds one backtracking match, and backtrackBudget all the
// backtracking matches of one firing together. A pattern such as
// (a+)+\1b can take exponential time; Python and JavaScript would hang, a
// dispatch must not — and a config (a repository's above all) must not
// make every decision slow by listing many such matchers. A match that
// runs out of time, or that the firing's budget no longer covers, cannot
// tell whether the entry applies: the entry is selected and fails as a
// hook that cannot start (see fitOutOfTime), so a fail_closed guard
// blocks rather than being skipped on a guess. (The budget is checked
// before each match, so one firing spends at most the budget plus one
// match's bound, plus the engine's clock granularity.)
var (
	regexTimeout    = 100 * time.Millisecond
	backtrackBudget = 250 * time.Millisecond
)

// fit is a matcher's answer for one firing.
type fit uint8

const (
	fitNo  fit = iota
	fitYes     // the entry applies
	// fitOutOfTime: the backtracking engine ran out of time (regexTimeout,
	// backtrackBudget).
	fitOutOfTime
)

// firing is what selecting the entries of one firing keeps: the
// backtracking time left, and the entries selected without an answer
// from their matchers. It lives on the dispatch's stack; nothing is
// allocated unless an entry is undecided (or refused, see screener).
type firing struct {
	left      time.Duration
	undecided []undecidedEntry
	refused   []*Entry
}

type undecidedEntry struct {
	e   *Entry
	why fit
}

func newFiring() firing { return firing{left: backtrackBudget} }

// why is the spawn error of an entry selected undecided in this firing,
// "" for one its matcher decided.
func (f *firing) why(e *Entry) string {
	for _, u := range f.undecided {
		if u.e != e {
			continue
		}
		return "matcher '" + e.Matcher + "': cannot tell whether it matches this firing: the backtracking regex engine ran out of time (" +
			regexTimeout.String() + " per match, " + backtrackBudget.String() + " per dispatch)"
	}
	return ""
}

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
		re, slow, err := compileRegex(m, m, planJS, true, func(s string) string { return s })
		if err != nil {
			warn("'" + m + "' is not a valid JavaScript regular expression (" + err.Error() + "); this hook will never match, as in Claude Code")
			return matcher{kind: matchNever}
		}
		return matcher{kind: matchSearch, re: re, slow: slow}
	}
	if regexp.QuoteMeta(m) == m {
		return matcher{kind: matchLiteral, literal: m}
	}
	re, slow, err := compileRegex(m, `^(?:`+m+`)$`, planPython, false, func(s string) string { return `\A(?:` + s + `)\z` })
	if err != nil {
		warn("shell hook matcher '" + m + "' is invalid (" + err.Error() + ") — treating as literal equality")
		return matcher{kind: matchLiteral, literal: m}
	}
	return matcher{kind: matchFull, literal: m, re: re, slow: slow}
}

// compileRegex plans pattern for its dialect and compiles the engines the
// plan needs: RE2 on re2Expr (the pattern, anchored as the dialect wants)
// when RE2 means the same, the backtracking engine on the translated
// pattern (anchored by anchor) otherwise.
func compileRegex(pattern, re2Expr string, plan func(string) (rxPlan, error), ecmaScript bool, anchor func(string) string) (re *regexp.Regexp, slow *regexp2.Regexp, err error) {
	p, err := plan(pattern)
	if err != nil {
		return nil, nil, err
	}
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
	opts := regexp2.None // .NET's mode, Python's re where the plan leaves it
	if ecmaScript {
		opts = regexp2.ECMAScript
	}
	slow, err = regexp2.Compile(anchor(p.slowExpr), opts)
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

// fits applies the matcher to a firing; f (nil: none) bounds the
// backtracking time.
func (m *matcher) fits(e *Entry, fields map[string]any, tools *protocol.ToolTable, f *firing) fit {
	if m.kind == matchAll {
		return fitYes
	}
	one, toolNames, ok := m.subject(e, fields, tools)
	if e.Dialect == protocol.Cursor || e.Dialect == protocol.Claude {
		switch {
		case !ok:
			return fitYes // Claude: nothing to compare with, every firing
		case toolNames:
			return m.anyMatches(protocol.ClaudeToolNames(one), f)
		}
		return m.anyMatches([]string{one}, f)
	}
	if !ok {
		return fitNo // Hermes: no tool name, no match
	}
	if m.kind == matchLiteral {
		return asFit(one == m.literal)
	}
	matched, done := m.regexMatch(one, f)
	if !done {
		return fitOutOfTime
	}
	return asFit(matched)
}

func asFit(ok bool) fit {
	if ok {
		return fitYes
	}
	return fitNo
}

// subject is what the matcher is applied to for this firing: the string,
// or, when toolNames is set, each of protocol.ClaudeToolNames(s); ok is
// false when there is none (see matches for what that means). The caller
// expands the names: a slice returned from here would be allocated at
// every firing.
func (m *matcher) subject(e *Entry, fields map[string]any, tools *protocol.ToolTable) (s string, toolNames, ok bool) {
	if e.Dialect == protocol.Cursor {
		// Compared with Cursor's tool name (Shell, Read …) on tool events;
		// elsewhere the matcher was dropped at load.
		name, _ := fields["tool_name"].(string)
		return protocol.CursorToolName(name, tools), false, true
	}
	if e.Dialect == protocol.Claude {
		q, ok := protocol.ClaudeMatchQuery(e.Event, fields, tools)
		return q, ok && e.Event.ClaudeMatchOn == "tool_name", ok
	}
	// Hermes: compared against the Hermes tool name.
	name, ok := fields["tool_name"].(string)
	if !ok {
		return "", false, false
	}
	return tools.Hermes(name), false, true
}

// anyMatches applies a Claude-rule matcher (names or search) to
// candidates: it fits when one candidate matches; when none does and some
// search ran out of time, nobody can tell.
func (m *matcher) anyMatches(candidates []string, f *firing) fit {
	switch m.kind {
	case matchNames:
		for _, c := range candidates {
			for _, n := range m.names {
				if c == n {
					return fitYes
				}
			}
		}
	case matchSearch:
		out := fitNo
		for _, c := range candidates {
			ok, done := m.regexMatch(c, f)
			switch {
			case ok && done:
				return fitYes
			case !done:
				out = fitOutOfTime
			}
		}
		return out
	}
	return fitNo
}

// regexMatch runs the engine that is exact for s; done is false when the
// backtracking engine ran out of time, or when the firing f has no
// backtracking time left and it was not run at all.
func (m *matcher) regexMatch(s string, f *firing) (matched, done bool) {
	if m.re != nil && (m.slow == nil || isPlain(s)) {
		return m.re.MatchString(s), true
	}
	if f == nil {
		ok, err := matchRunes(m.slow, s)
		return ok, err == nil
	}
	if f.left <= 0 {
		return false, false
	}
	start := time.Now()
	ok, err := matchRunes(m.slow, s)
	f.left -= time.Since(start)
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
