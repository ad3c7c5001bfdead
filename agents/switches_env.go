package agents

import (
	"regexp"
	"sync"
)

// Gemini CLI and Qwen Code expand environment variables in every string
// of a settings file before they use it (envVarResolver.ts,
// resolveEnvVarsInString): $NAME and ${NAME} become the variable's value
// when it is set (empty included), ${NAME:-DEFAULT} the default when it
// is not, and anything else stays as written. A repository's
// "enabled": "${UNSET:-}" is "" to Gemini, false, and hooks stop: doctor
// expands the strings too, from its own environment (the agent's, when
// doctor runs where the agent runs; Qwen also fills in a few home
// variables of its own, which doctor does not).

// envRef is resolveEnvVarsInString's pattern, in RE2 (JavaScript's \w is
// [A-Za-z0-9_] here as there; the lazy name reads the same, leftmost
// first).
var envRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$(?:([A-Za-z0-9_]+)|\{([^}]+?)(?::-([^}]*))?\})`)
})

// expandEnv is v with its strings expanded as the agent expands them,
// lookup its environment (nil: nothing set). Objects and arrays are
// new; their keys stay as written.
func expandEnv(v any, lookup func(string) (string, bool)) any {
	switch t := v.(type) {
	case string:
		return expandString(t, lookup)
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = expandEnv(e, lookup)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = expandEnv(e, lookup)
		}
		return out
	}
	return v
}

func expandString(s string, lookup func(string) (string, bool)) string {
	re := envRef()
	if !re.MatchString(s) {
		return s
	}
	var out []byte
	last := 0
	for _, m := range re.FindAllStringSubmatchIndex(s, -1) {
		out = append(out, s[last:m[0]]...)
		last = m[1]
		name := ""
		switch {
		case m[2] >= 0:
			name = s[m[2]:m[3]]
		case m[4] >= 0:
			name = s[m[4]:m[5]]
		}
		if lookup != nil {
			if val, set := lookup(name); set {
				out = append(out, val...)
				continue
			}
		}
		if m[6] >= 0 {
			out = append(out, s[m[6]:m[7]]...)
			continue
		}
		out = append(out, s[m[0]:m[1]]...)
	}
	return string(append(out, s[last:]...))
}
