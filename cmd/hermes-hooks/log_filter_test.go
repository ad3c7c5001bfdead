package main

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
		got, err := filterDecision(c.in)
		if c.hint == "" {
			if err != nil || got != c.want {
				t.Errorf("filterDecision(%q) = %q, %v; want %q", c.in, got, err, c.want)
			}
			continue
		}
		var ee *exitError
		if !errors.As(err, &ee) || ee.Code != 2 || !strings.Contains(ee.Hint, c.hint) {
			t.Errorf("filterDecision(%q) = %q, %v; want a usage error hinting %q", c.in, got, err, c.hint)
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
		got, err := filterEvent(c.in)
		if c.hint == "" {
			if err != nil || got != c.want {
				t.Errorf("filterEvent(%q) = %q, %v; want %q", c.in, got, err, c.want)
			}
			continue
		}
		var ee *exitError
		if !errors.As(err, &ee) || ee.Code != 2 || !strings.Contains(ee.Hint, c.hint) {
			t.Errorf("filterEvent(%q) = %q, %v; want a usage error hinting %q", c.in, got, err, c.hint)
		}
	}
}

// A value either reads to a name the journal records or is refused: never
// accepted as something no record can hold (which printed nothing).
func FuzzLogFilters(f *testing.F) {
	for _, s := range []string{"block", "deny", "PreToolUse", "pre_tool", "", "\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if d, err := filterDecision(s); err == nil && s != "" && !slices.Contains(journalDecisions, d) {
			t.Fatalf("--decision %q read as %q", s, d)
		}
		if e, err := filterEvent(s); err == nil && s != "" {
			if ev, ok := protocol.Lookup(e); !ok || ev.Name != e {
				t.Fatalf("--event %q read as %q, not a canonical name", s, e)
			}
		}
	})
}
