package journal

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

func TestFilterDecision(t *testing.T) {
	for _, c := range []struct {
		in, want, hint string // hint: a part of the usage error's hint
	}{
		{"", "", ""},
		{"block", "block", ""},
		{"BLOCK", "block", ""},
		{" none ", "none", ""},
		{"allow", "allow", ""},
		{"ask", "ask", ""},
		{"deny", "block", ""},
		{"Deny", "block", ""},
		{"approve", "allow", ""},
		{"blok", "", "did you mean 'block'?"},
		{"alow", "", "did you mean 'allow'?"},
		{"defer", "", "never defer"},
		{"xyz", "", "one of: none, allow, ask, block"},
	} {
		got, err := FilterDecision(c.in)
		if c.hint == "" {
			if err != nil || got != c.want {
				t.Errorf("FilterDecision(%q) = %q, %v; want %q", c.in, got, err, c.want)
			}
			continue
		}
		var fe *FilterError
		if !errors.As(err, &fe) || !strings.Contains(fe.Hint, c.hint) {
			t.Errorf("FilterDecision(%q) = %q, %v; want a FilterError hinting %q", c.in, got, err, c.hint)
		}
	}
}

func TestFilterEvent(t *testing.T) {
	for _, c := range []struct{ in, want, hint string }{
		{"", "", ""},
		{"pre_tool_call", "pre_tool_call", ""},
		{"PreToolUse", "pre_tool_call", ""},
		{"pre_tool", "", "did you mean 'pre_tool_call'?"},
		{"zzzzzz", "", "hermes-hooks events"},
	} {
		got, err := FilterEvent(c.in)
		if c.hint == "" {
			if err != nil || got != c.want {
				t.Errorf("FilterEvent(%q) = %q, %v; want %q", c.in, got, err, c.want)
			}
			continue
		}
		var fe *FilterError
		if !errors.As(err, &fe) || !strings.Contains(fe.Hint, c.hint) {
			t.Errorf("FilterEvent(%q) = %q, %v; want a FilterError hinting %q", c.in, got, err, c.hint)
		}
	}
}

// A value either reads to a name the journal records or is refused: never
// accepted as something no record can hold (which printed nothing).
func FuzzFilterValues(f *testing.F) {
	for _, s := range []string{"block", "deny", "PreToolUse", "pre_tool", "", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d, err := FilterDecision(s); err == nil && s != "" && !slices.Contains(decisions, d) {
			t.Fatalf("--decision %q read as %q", s, d)
		}
		if e, err := FilterEvent(s); err == nil && s != "" {
			if ev, ok := protocol.Lookup(e); !ok || ev.Name != e {
				t.Fatalf("--event %q read as %q, not a canonical name", s, e)
			}
		}
	})
}
