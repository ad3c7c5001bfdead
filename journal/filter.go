package journal

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/suggest"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Filter selects records (`hermes-hooks log`, `replay`); a zero field
// selects every record.
type Filter struct {
	Since, Until time.Time // Since inclusive, Until exclusive
	Event        string    // canonical event name
	Decision     string    // outcome decision: none, allow, ask, block; or what the agent got (Entry.Delivered)
	Session      string
	Hook         string // a part of a hook's command or of a rule's name (Rule)
	// Would: an entry in mode: shadow (that Hook selects, when set) would
	// have decided this (ShadowVerdict): none, allow, ask or block.
	Would string
}

// FilterSpec is a filter as people write it: times as RFC 3339 or a
// duration back from now, any event name, a decision's other names.
type FilterSpec struct {
	Since, Until, Event, Decision, Session, Hook, Would string
}

// FilterError is a FilterSpec value that selects nothing a journal can
// hold: what is wrong, and how to write it.
type FilterError struct{ Msg, Hint string }

func (e *FilterError) Error() string { return e.Msg }

// NewFilter reads s, taking its durations back from now.
func NewFilter(s FilterSpec, now time.Time) (*Filter, error) {
	f := &Filter{Session: s.Session, Hook: s.Hook}
	var err error
	if f.Since, err = ParseWhen(s.Since, now); err != nil {
		return nil, err
	}
	if f.Until, err = ParseWhen(s.Until, now); err != nil {
		return nil, err
	}
	if !f.Since.IsZero() && !f.Until.IsZero() && !f.Since.Before(f.Until) {
		// No record is at or after the one and before the other: log
		// printed nothing and exited 0, which reads as a quiet journal.
		// (A duration counts back from now: --since 1h --until 2h is
		// the wrong way round.)
		return nil, &FilterError{Msg: fmt.Sprintf("--since %s is not before --until %s: no record can be both",
			f.Since.Format(time.RFC3339), f.Until.Format(time.RFC3339)),
			Hint: "swap them: a duration counts back from now, so --since 2h --until 1h is the hour before the last"}
	}
	if f.Event, err = FilterEvent(s.Event); err != nil {
		return nil, err
	}
	if f.Decision, err = FilterDecision(s.Decision); err != nil {
		return nil, err
	}
	if f.Would, err = filterDecision(s.Would, "--would"); err != nil {
		return nil, err
	}
	return f, nil
}

// Keep says whether f selects e.
func (f *Filter) Keep(e *Entry) bool {
	switch {
	case !f.Since.IsZero() && e.Time.Before(f.Since),
		!f.Until.IsZero() && !e.Time.Before(f.Until),
		f.Event != "" && e.Event != f.Event,
		f.Decision != "" && e.Decision != f.Decision && e.Delivered != f.Decision,
		f.Session != "" && e.Session != f.Session:
		return false
	}
	if f.Hook == "" && f.Would == "" {
		return true
	}
	for i := range e.Hooks {
		h := &e.Hooks[i]
		// A rule is also found by its name (its id:, else its file and
		// line): the name the journal and export give it, which outlives
		// edits to its expression.
		if f.Hook != "" && !strings.Contains(h.Command, f.Hook) && !strings.Contains(h.Rule, f.Hook) {
			continue
		}
		if verdict, ok := ShadowVerdict(h); f.Would == "" || ok && verdict == f.Would {
			return true
		}
	}
	return false
}

// ShadowVerdict is what h, a hook in mode: shadow that answered, would
// have decided (its would's decision: allow, ask or block; none when it
// asked for no decision, "would" empty or only effects such as context);
// ok is false for a hook not in mode: shadow, and for one that did not
// answer (skipped, failed, timed out), which would have decided nothing
// either but tells nothing of what its entry decides.
func ShadowVerdict(h *HookEntry) (verdict string, ok bool) {
	if !h.Shadow || !h.Ran || h.Error != "" || h.TimedOut {
		return "", false
	}
	v, _, _ := strings.Cut(h.Would, ":")
	switch v {
	case "allow", "ask", "block":
		return v, true
	}
	return "none", true
}

// ParseWhen reads an RFC 3339 time or a duration back from now ("" is
// the zero time): Go's (90m, 1h), with whole days in front (7d, 1d12h),
// the unit a rule is watched in shadow mode for.
func ParseWhen(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	d, err := parseBack(s)
	if err != nil || d < 0 {
		return time.Time{}, &FilterError{Msg: fmt.Sprintf("cannot read the time %q", s),
			Hint: "write an RFC 3339 time (2025-01-31T12:00:00Z) or a duration back from now (90m, 1h, 7d)"}
	}
	return now.Add(-d), nil
}

// maxDays bounds a duration's days so that it stays a time.Duration.
const maxDays = 100000

// parseBack reads a duration: time.ParseDuration's, after whole days
// ("7d", "1d12h"; a sign or fraction of days is refused).
func parseBack(s string) (time.Duration, error) {
	days, rest, ok := strings.Cut(s, "d")
	if !ok || days == "" || strings.Trim(days, "0123456789") != "" {
		return time.ParseDuration(s)
	}
	n, err := strconv.Atoi(days)
	if err != nil || n > maxDays {
		return 0, fmt.Errorf("days %q out of range", days)
	}
	d := time.Duration(n) * 24 * time.Hour
	if rest == "" {
		return d, nil
	}
	r, err := time.ParseDuration(rest)
	if err != nil || r < 0 || strings.HasPrefix(rest, "+") {
		return 0, fmt.Errorf("cannot read %q after the days", rest)
	}
	return d + r, nil
}

// The values of --event and --decision. A value the journal never holds
// used to select nothing, silently: `log --decision deny` printed an empty
// journal. Each is now read to the name the journal records, or refused
// with a did-you-mean.

// FilterEvent reads an event name: any name the dispatcher accepts
// (canonical, Claude Code's, an alias) to the canonical name the journal
// records.
func FilterEvent(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	if ev, ok := protocol.Lookup(s); ok {
		return ev.Name, nil
	}
	hint := "run 'hermes-hooks events' for the event names (Claude Code's, such as PreToolUse, are accepted too)"
	if sug := protocol.SuggestEvent(s); sug != "" {
		hint = "did you mean '" + sug + "'?"
	}
	return "", &FilterError{Msg: "unknown --event '" + s + "'", Hint: hint}
}

// decisions are the outcome decisions a record holds, in the order the
// help lists them.
var decisions = []string{"none", "allow", "ask", "block"}

// decisionAliases are other names people know these decisions by: Claude
// Code's permissionDecision "deny" and its (and Hermes') "approve".
var decisionAliases = map[string]string{"deny": "block", "approve": "allow"}

// FilterDecision reads a decision, case-insensitive, to one the journal
// records.
func FilterDecision(s string) (string, error) { return filterDecision(s, "--decision") }

// filterDecision is FilterDecision for the flag that gave s, which its
// error names.
func filterDecision(s, flag string) (string, error) {
	if s == "" {
		return "", nil
	}
	v := strings.ToLower(strings.TrimSpace(s))
	for _, d := range decisions {
		if v == d {
			return d, nil
		}
	}
	if d, ok := decisionAliases[v]; ok {
		return d, nil
	}
	hint := "one of: " + strings.Join(decisions, ", ") + "; Claude Code's deny and approve mean block and allow"
	switch sug := suggest.Closest(v, append(append([]string{}, decisions...), "deny", "approve")); {
	case v == "defer":
		hint = "an outcome is never defer: a deferring hook leaves the decision to the agent, recorded as none (" + flag + " none)"
	case sug != "":
		hint = "did you mean '" + sug + "'? (" + hint + ")"
	}
	return "", &FilterError{Msg: "unknown " + flag + " '" + s + "'", Hint: hint}
}
