package hookconfig

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"
	"github.com/hermes-hooks/hermes-hooks/internal/rule"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// parseTimeout reads an entry's timeout key as its dialect does, and says
// whether the value was taken (set: false when a warning put the default
// in its place).
//
// Hermes: Python int() of the value, then Hermes' bounds: below 1 → the
// default (not 1), above 300 → 300.
//
// Claude-dialect and Codec entries: seconds as a JSON number, fractions
// allowed as Claude Code allows them (0.5 is half a second); a value that
// is not above 0 is no timeout and gives the default; above 600 s is
// clamped to 600 s (MaxClaudeTimeoutSeconds: Claude Code sets no bound, we
// keep its default as one, a documented difference). A numeric string
// ("30") is read by Hermes' int() rule with Claude's bound.
func (cfg *Config) parseTimeout(path string, t *yaml.Node, dialect protocol.Dialect, def time.Duration) (_ time.Duration, set bool) {
	if dialect != protocol.Hermes {
		f, ok := pyyaml.Number(t)
		if ok && !math.IsNaN(f) && !math.IsInf(f, 0) {
			switch {
			case f <= 0:
				cfg.warn(path, fmt.Sprintf(".timeout=%ss is not above 0s; using default %ss", t.Value, secondsText(def)))
				return def, false
			case f > MaxClaudeTimeoutSeconds:
				cfg.warnMinor(path, fmt.Sprintf(".timeout=%ss exceeds max %ds; clamping", t.Value, MaxClaudeTimeoutSeconds))
				return MaxClaudeTimeoutSeconds * time.Second, true
			}
			// A timeout so small it rounds to nothing is still the
			// shortest one, not none.
			return max(time.Duration(f*float64(time.Second)), time.Nanosecond), true
		}
	}
	limit := MaxTimeoutSeconds
	if dialect != protocol.Hermes {
		limit = MaxClaudeTimeoutSeconds
	}
	v, ok := pyyaml.Int(t)
	switch {
	case !ok:
		cfg.warn(path, fmt.Sprintf(".timeout must be an int (got %s); using default %ss", pyyaml.Repr(t), secondsText(def)))
		return def, false
	case v < 1:
		// Hermes' words (".timeout must be >=1; using default 60s"), with
		// the value as its int warning gives one.
		cfg.warn(path, fmt.Sprintf(".timeout must be >=1 (got %d); using default %ss", v, secondsText(def)))
		return def, false
	case v > limit:
		cfg.warnMinor(path, fmt.Sprintf(".timeout=%ds exceeds max %ds; clamping", v, limit))
		return time.Duration(limit) * time.Second, true
	}
	return time.Duration(v) * time.Second, true
}

// parseRuleTimeout reads a rule entry's timeout: seconds with fractions
// (0.2), as docs/config.md gives it, since a rule's bound
// (rule.DefaultTimeout) is below a second and a timeout can only shorten
// it. Its warnings name that bound, which is what a value not taken
// leaves the rule decided within, and the form the key takes: a command's
// words ("must be an int", "using default 60s") would say the rule may run
// for a minute and that 0.2 is refused. def is what Timeout keeps when
// the value is not taken (the dispatcher bounds a rule by the shorter of
// it and rule.DefaultTimeout). A quoted whole number ("1") is read by
// Hermes' int() rule, as for any entry.
func (cfg *Config) parseRuleTimeout(path string, t *yaml.Node, def time.Duration) (_ time.Duration, set bool) {
	bound := secondsText(rule.DefaultTimeout)
	f, ok := pyyaml.Number(t)
	shown := t.Value
	if !ok {
		var v int
		if v, ok = pyyaml.Int(t); ok {
			f, shown = float64(v), strconv.Itoa(v)
		}
	}
	switch {
	case !ok || math.IsNaN(f) || math.IsInf(f, 0):
		cfg.warn(path, fmt.Sprintf(".timeout must be a number of seconds, fractions allowed (such as 0.2) (got %s); using a rule's bound of %ss", pyyaml.Repr(t), bound))
		return def, false
	case f <= 0:
		cfg.warn(path, fmt.Sprintf(".timeout=%ss is not above 0s; using a rule's bound of %ss", shown, bound))
		return def, false
	case f > rule.DefaultTimeout.Seconds():
		// Kept (list shows the bound it leaves), and said to change
		// nothing: one warning, not a clamp to 600 s before it.
		cfg.warnMinor(path, fmt.Sprintf(".timeout=%ss is above a rule's bound of %ss, which a timeout can only shorten: the rule is decided within %ss",
			shown, bound, bound))
		return time.Duration(min(f, MaxClaudeTimeoutSeconds) * float64(time.Second)), true
	}
	// A timeout so small it rounds to nothing is still the shortest
	// one, not none.
	return max(time.Duration(f*float64(time.Second)), time.Nanosecond), true
}

// secondsText writes a default timeout in seconds as Hermes prints one
// ("60"), with a fraction where it has one.
func secondsText(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}
