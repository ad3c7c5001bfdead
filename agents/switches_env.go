package agents

import (
	"fmt"
	"strings"
	"sync"
)

// Gemini CLI and Qwen Code expand environment variables in every string
// of a settings file before they use it (envVarResolver.ts,
// resolveEnvVarsInString), each its own way. Gemini: $NAME and ${NAME}
// become the variable's value when it is set (empty included),
// ${NAME:-DEFAULT} the default when it is not, anything else stays as
// written. Qwen: $NAME and ${ANYTHING} (no defaults: "${X:-}" names the
// variable "X:-") become the value when set, except a few names it keeps
// as written (its session id and its own tokens). A repository's
// "enabled": "${UNSET:-}" is "" to Gemini, false, and hooks stop: doctor
// expands the strings too, from its own environment (the agent's, when
// doctor runs where the agent runs; Qwen also fills in a few home
// variables of its own, which doctor does not).

// An expander is one agent's resolveEnvVarsInString.
type expander struct {
	// defaults: ${NAME:-DEFAULT} gives DEFAULT when NAME is not set
	// (Gemini's pattern, \$(?:(\w+)|{([^}]+?)(?::-([^}]*))?}); without,
	// Qwen's \$(?:(\w+)|{([^}]+)}), the whole of ${...} is the name.
	defaults bool
	// kept are the names (in upper case) left as written.
	kept []string
}

// geminiEnv and qwenEnv are the agents' expanders.
var (
	geminiEnv = sync.OnceValue(func() *expander { return &expander{defaults: true} })
	qwenEnv   = sync.OnceValue(func() *expander {
		return &expander{kept: []string{
			"SESSION_ID", "QWEN_CODE_SESSION_ID", "QWEN_SERVER_TOKEN", "QWEN_DAEMON_TOKEN", "QWEN_CODE_EXTERNAL_TOOL_GUARD_TOKEN",
		}}
	})
)

// maxExpanded bounds the text doctor expands from one settings file: a
// repository's 4 MiB of "$LS_COLORS" would otherwise grow to hundreds of
// MB of the user's environment. A real settings file expands a few
// paths; one past the bound is refused (doctor: "cannot read").
const maxExpanded = 16 << 20

// errExpanded is expandEnv's error past maxExpanded.
var errExpanded = fmt.Errorf("more text once its environment variables are expanded than doctor reads: over %d bytes", maxExpanded)

// expandEnv is v with its strings expanded as the agent expands them,
// lookup its environment (nil: nothing set). Objects and arrays are
// new; their keys stay as written. *budget is what may still be written.
func (x *expander) expandEnv(v any, lookup func(string) (string, bool), budget *int) (any, error) {
	switch t := v.(type) {
	case string:
		s := x.expandString(t, lookup)
		if *budget -= len(s); *budget < 0 {
			return nil, errExpanded
		}
		return s, nil
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			var err error
			if out[i], err = x.expandEnv(e, lookup, budget); err != nil {
				return nil, err
			}
		}
		return out, nil
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			var err error
			if out[k], err = x.expandEnv(e, lookup, budget); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return v, nil
}

// expandString is s expanded; past maxExpanded it stops (expandEnv then
// refuses the file).
//
// A hand-written scan, not a regular expression: Go's regexp, asked for
// all matches, searches to the end of s for the '}' of each "${" left
// unclosed, and a repository's 64 KiB of "${$b" held doctor for half a
// minute (a 256 KiB string, minutes). Here the next '}' is found once
// and kept until the scan passes it, so each byte is looked at a bounded
// number of times. The matches are the agents' pattern's, leftmost
// first: $ then the longest run of [A-Za-z0-9_] (JavaScript's \w), or
// ${, at least one byte, and the first } after it; for Gemini the name
// inside ends at the first ":-" after its first byte, the rest up to the
// } its default.
func (x *expander) expandString(s string, lookup func(string) (string, bool)) string {
	first := strings.IndexByte(s, '$')
	if first < 0 {
		return s
	}
	out := make([]byte, 0, len(s))
	out = append(out, s[:first]...)
	// closeAt is the first '}' at or after some earlier position, len(s)
	// when there is none (then no later "${" closes either).
	closeAt := -1
	i := first
	for i < len(s) {
		if len(out) > maxExpanded {
			return string(out)
		}
		if s[i] != '$' {
			next := strings.IndexByte(s[i:], '$')
			if next < 0 {
				break
			}
			out = append(out, s[i:i+next]...)
			i += next
			continue
		}
		name, def, hasDef, end := x.reference(s, i, &closeAt)
		if end < 0 {
			out = append(out, '$')
			i++
			continue
		}
		if val, ok := x.value(name, lookup); ok {
			out = append(out, val...)
		} else if hasDef {
			out = append(out, def...)
		} else {
			out = append(out, s[i:end]...)
		}
		i = end
	}
	return string(append(out, s[i:]...))
}

// reference reads the reference that starts with the '$' at s[i]: its
// name, its default (hasDef: Gemini's ${NAME:-DEFAULT}) and the end of
// the reference, -1 when none starts there. *closeAt caches the next '}'.
func (x *expander) reference(s string, i int, closeAt *int) (name, def string, hasDef bool, end int) {
	j := i + 1
	for j < len(s) && isWordByte(s[j]) {
		j++
	}
	if j > i+1 {
		return s[i+1 : j], "", false, j
	}
	if j >= len(s) || s[j] != '{' {
		return "", "", false, -1
	}
	open := j + 1
	if *closeAt < open && *closeAt < len(s) {
		if k := strings.IndexByte(s[open:], '}'); k >= 0 {
			*closeAt = open + k
		} else {
			*closeAt = len(s)
		}
	}
	if *closeAt >= len(s) || *closeAt == open {
		return "", "", false, -1 // unclosed, or "${}"
	}
	inner := s[open:*closeAt]
	end = *closeAt + 1
	if x.defaults {
		if k := strings.Index(inner[1:], ":-"); k >= 0 {
			return inner[:k+1], inner[k+3:], true, end
		}
	}
	return inner, "", false, end
}

// value is name's value, when lookup sets it and the agent does not keep
// the name as written.
func (x *expander) value(name string, lookup func(string) (string, bool)) (string, bool) {
	if lookup == nil {
		return "", false
	}
	if len(x.kept) > 0 {
		upper := strings.ToUpper(name)
		for _, k := range x.kept {
			if upper == k {
				return "", false
			}
		}
	}
	return lookup(name)
}

// isWordByte is JavaScript's \w (without the u flag): [A-Za-z0-9_].
func isWordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}
