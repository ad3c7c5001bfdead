package journal

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

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

// A window that ends before it starts selects nothing: refused, not an
// empty log.
func TestNewFilterWindow(t *testing.T) {
	now := time.Date(2025, 1, 31, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		since, until string
		ok           bool
	}{
		{"", "", true},
		{"2h", "1h", true},
		{"2h", "", true},
		{"", "1h", true},
		{"1h", "2h", false},
		{"1h", "1h", false},
		{"2025-01-31T11:00:00Z", "2025-01-31T10:00:00Z", false},
		{"2025-01-31T10:00:00Z", "2025-01-31T11:00:00Z", true},
	} {
		_, err := NewFilter(FilterSpec{Since: c.since, Until: c.until}, now)
		var fe *FilterError
		if c.ok != (err == nil) || !c.ok && (!errors.As(err, &fe) || !strings.Contains(fe.Msg, "is not before --until")) {
			t.Errorf("NewFilter(--since %q --until %q) = %v; want ok %v", c.since, c.until, err, c.ok)
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

// TestParseWhenDays: --since and --until take days ("7d", "1d12h"), the
// unit a rule is watched in shadow mode for; "7d" was "cannot read the
// time", and a team lead had to work out 168h.
func TestParseWhenDays(t *testing.T) {
	now := time.Date(2025, 1, 31, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		in   string
		back time.Duration
	}{
		{"7d", 7 * 24 * time.Hour},
		{"1d12h", 36 * time.Hour},
		{"1d30m", 24*time.Hour + 30*time.Minute},
		{"0d", 0},
		{"24h", 24 * time.Hour},
	} {
		got, err := ParseWhen(c.in, now)
		if err != nil || !got.Equal(now.Add(-c.back)) {
			t.Errorf("ParseWhen(%q) = %v, %v; want %v", c.in, got, err, now.Add(-c.back))
		}
	}
	for _, in := range []string{"d", "-1d", "1.5d", "1dd", "yesterday", "1d-2h", "99999999999d"} {
		if _, err := ParseWhen(in, now); err == nil {
			t.Errorf("ParseWhen(%q): no error", in)
		}
	}
}

// Would selects by what a shadow entry that answered would have decided
// (with Hook, that entry); Decision also by what the agent got.
func TestFilterWouldAndDelivered(t *testing.T) {
	shadow := func(cmd, would string) HookEntry {
		return HookEntry{Command: cmd, Ran: true, Decision: "none", Shadow: true, Would: would}
	}
	failed := HookEntry{Command: "opa: x", Ran: true, Shadow: true, Error: "500"}
	entries := map[string]*Entry{
		"block":     {Decision: "none", Hooks: []HookEntry{shadow("a.sh", "block: no")}},
		"context":   {Decision: "none", Hooks: []HookEntry{shadow("b.sh", "context")}},
		"nothing":   {Decision: "none", Hooks: []HookEntry{shadow("c.sh", "")}},
		"failed":    {Decision: "none", Hooks: []HookEntry{failed}},
		"enforced":  {Decision: "block", Hooks: []HookEntry{{Command: "a.sh", Ran: true, Decision: "block"}}},
		"delivered": {Decision: "ask", Delivered: "block", Hooks: []HookEntry{{Command: "d.sh", Ran: true, Decision: "ask"}}},
	}
	for _, c := range []struct {
		spec FilterSpec
		want []string
	}{
		{FilterSpec{Would: "block"}, []string{"block"}},
		{FilterSpec{Would: "deny", Hook: "a.sh"}, []string{"block"}},
		{FilterSpec{Would: "block", Hook: "b.sh"}, nil},
		{FilterSpec{Would: "none"}, []string{"context", "nothing"}},
		{FilterSpec{Decision: "block"}, []string{"delivered", "enforced"}},
		{FilterSpec{Decision: "ask"}, []string{"delivered"}},
	} {
		f, err := NewFilter(c.spec, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for name, e := range entries {
			if f.Keep(e) {
				got = append(got, name)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%+v keeps %v, want %v", c.spec, got, c.want)
		}
	}
	var fe *FilterError
	if _, err := NewFilter(FilterSpec{Would: "maybe"}, time.Now()); !errors.As(err, &fe) || !strings.Contains(fe.Msg, "--would") {
		t.Errorf("--would maybe: %v", err)
	}
}
