package dispatcher

import (
	"regexp"
	"strings"

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
type matcher struct {
	kind    matchKind
	literal string
	names   []string
	re      *regexp.Regexp
}

// compileMatcher builds the entry's matcher, reporting invalid patterns
// through warn.
//
// Hermes rule: the stripped pattern must match the whole tool name (Python
// re.fullmatch); a pattern that does not compile matches only itself,
// literally. Go's RE2 lacks look-arounds and back-references, so such
// patterns take the literal branch where Python would have compiled them.
//
// Claude rule: "", "*" and ".*" match everything; a pattern of only letters,
// digits, "_", "|", ",", "-" and spaces is a list of exact names (split on
// "|" and ","); anything else is an unanchored regex, and an invalid one
// never matches.
func compileMatcher(e *Entry, warn func(string)) matcher {
	m := e.Matcher
	if m == "" {
		return matcher{kind: matchAll}
	}
	if e.Dialect == protocol.Claude {
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
		re, err := regexp.Compile(m)
		if err != nil {
			warn("'" + m + "' is not a valid regular expression (" + err.Error() + "); this hook will never match, as in Claude Code")
			return matcher{kind: matchNever}
		}
		return matcher{kind: matchSearch, re: re}
	}
	if regexp.QuoteMeta(m) == m {
		return matcher{kind: matchLiteral, literal: m}
	}
	re, err := regexp.Compile(`^(?:` + m + `)$`)
	if err != nil {
		warn("shell hook matcher '" + m + "' is invalid (" + err.Error() + ") — treating as literal equality")
		return matcher{kind: matchLiteral, literal: m}
	}
	return matcher{kind: matchFull, re: re}
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
	if e.Dialect == protocol.Claude {
		q, ok := protocol.ClaudeMatchQuery(e.Event, fields, tools)
		if !ok {
			return true
		}
		candidates := []string{q}
		if e.Event.ClaudeMatchOn == "tool_name" {
			candidates = protocol.ClaudeToolNames(q)
		}
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
				if m.re.MatchString(c) {
					return true
				}
			}
		}
		return false
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
	return m.re.MatchString(s)
}
