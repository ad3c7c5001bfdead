package protocol

import "testing"

func TestFirstCaller(t *testing.T) {
	for _, c := range []struct{ list, want string }{
		{"", ""},
		{"claude", "claude"},
		{"copilot,claude", "copilot"},
		{OwnRunElsewhere + ",codex", "codex"},
		{",gemini", "gemini"},
		{OwnRunElsewhere, ""},
		{HostCapsStops + ",claude", "claude"},
		{HostCapsStops, ""},
	} {
		if got := FirstCaller(c.list); got != c.want {
			t.Errorf("FirstCaller(%q) = %q, want %q", c.list, got, c.want)
		}
	}
}
