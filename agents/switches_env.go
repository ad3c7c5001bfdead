package agents

import (
	"fmt"
	"regexp"
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
	re *regexp.Regexp
	// defaults: the pattern's third group is ${NAME:-DEFAULT}'s default.
	defaults bool
	// kept are the names (in upper case) left as written.
	kept []string
}

// geminiEnv and qwenEnv are the agents' patterns, in RE2 (JavaScript's
// \w is [A-Za-z0-9_] here as there; the lazy name reads the same,
// leftmost first).
var (
	geminiEnv = sync.OnceValue(func() *expander {
		return &expander{re: regexp.MustCompile(`\$(?:([A-Za-z0-9_]+)|\{([^}]+?)(?::-([^}]*))?\})`), defaults: true}
	})
	qwenEnv = sync.OnceValue(func() *expander {
		return &expander{re: regexp.MustCompile(`\$(?:([A-Za-z0-9_]+)|\{([^}]+)\})`), kept: []string{
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
func (x *expander) expandString(s string, lookup func(string) (string, bool)) string {
	re := x.re
	if !re.MatchString(s) {
		return s
	}
	var out []byte
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		if len(out) > maxExpanded {
			break
		}
		out = append(out, s[last:m[0]]...)
		last = m[1]
		name := ""
		switch {
		case m[2] >= 0:
			name = s[m[2]:m[3]]
		case m[4] >= 0:
			name = s[m[4]:m[5]]
		}
		kept := false
		for _, k := range x.kept {
			kept = kept || strings.ToUpper(name) == k
		}
		if lookup != nil && !kept {
			if val, set := lookup(name); set {
				out = append(out, val...)
				continue
			}
		}
		if x.defaults && m[6] >= 0 {
			out = append(out, s[m[6]:m[7]]...)
			continue
		}
		out = append(out, s[m[0]:m[1]]...)
	}
	return string(append(out, s[last:]...))
}
