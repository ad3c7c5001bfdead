package agents

import (
	"strings"
	"testing"
)

func TestParseVersion(t *testing.T) {
	for in, want := range map[string]string{
		"codex-cli 0.171.0\n":       "0.171.0",
		"codex-cli 0.169.0-alpha.3": "0.169.0",
		"2.1.197 (Claude Code)":     "2.1.197",
		"no version here":           "",
		"v1.2":                      "",
	} {
		if got := ParseVersion([]byte(in)); got != want {
			t.Errorf("ParseVersion(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestKnowsEvent(t *testing.T) {
	codex, _ := Lookup("codex")
	for _, c := range []struct {
		version, event string
		known          bool
	}{
		{"0.169.0", "PreModelRequest", false},
		{"0.170.9", "PostModelRequest", false},
		{"0.171.0", "PreModelRequest", true},
		{"0.200.0", "PreModelRequest", true},
		{"1.0.0", "PreModelRequest", true},
		{"0.169.0", "PreToolUse", true},
		{"", "PreModelRequest", true},
	} {
		if got, _ := codex.KnowsEvent(c.version, c.event); got != c.known {
			t.Errorf("Codex %s knows %s: %v, want %v", c.version, c.event, got, c.known)
		}
	}
	if codex.VersionCommand() == nil {
		t.Error("no version command for Codex")
	}
	claude, _ := Lookup("claude")
	if known, _ := claude.KnowsEvent("0.0.1", "PreToolUse"); !known || claude.VersionCommand() != nil {
		t.Error("Claude Code's events do not depend on its version here")
	}
}

// FuzzParseVersion: whatever a CLI prints, the version read is three
// dot-separated numbers found in it, or nothing.
func FuzzParseVersion(f *testing.F) {
	f.Add([]byte("codex-cli 0.171.0\n"))
	f.Add([]byte("1.2.3.4.5"))
	f.Fuzz(func(t *testing.T, out []byte) {
		v := ParseVersion(out)
		if v == "" {
			return
		}
		if strings.Count(v, ".") != 2 || !strings.Contains(string(out), v) {
			t.Fatalf("ParseVersion(%q) = %q", out, v)
		}
		compareVersions(v, "0.171.0")
	})
}
