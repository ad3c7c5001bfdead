package hookconfig

import (
	"strings"
	"testing"
	"time"
)

// Hermes reads config.yaml with PyYAML (YAML 1.1) and a timeout with
// Python's int(): 0o10, 0X1E, 0B11, 1e3 and 1.5e1 are text to PyYAML,
// which int() refuses (Hermes warns and uses 60 s), and 1:30 is the base
// 60 integer 90. yaml.v3's YAML 1.2 reads the first five as numbers and
// 1:30 as text; the entry must get Hermes' timeout either way.
func TestTimeoutReadAsPyYAML(t *testing.T) {
	for _, tc := range []struct {
		val  string
		want time.Duration
		warn string // "" none
	}{
		{"0o10", 60 * time.Second, ".timeout must be an int (got '0o10'); using default 60s"},
		{"0X1E", 60 * time.Second, ".timeout must be an int (got '0X1E'); using default 60s"},
		{"0B11", 60 * time.Second, ".timeout must be an int (got '0B11'); using default 60s"},
		{"1e3", 60 * time.Second, ".timeout must be an int (got '1e3'); using default 60s"},
		{"1.5e1", 60 * time.Second, ".timeout must be an int (got '1.5e1'); using default 60s"},
		{"1:30", 90 * time.Second, ""},
		{"1:30.5", 90 * time.Second, ""},
		{"190:30:10", 300 * time.Second, ".timeout=685810s exceeds max 300s; clamping"},
		{"010", 8 * time.Second, ""},
		{"0x1e", 30 * time.Second, ""},
		{"0b1_1", 3 * time.Second, ""},
		{"1.5e+1", 15 * time.Second, ""},
		{"2026-01-02", 60 * time.Second, ".timeout must be an int (got "},
	} {
		cfg := mustParse(t, "hooks:\n  pre_tool_call:\n    - command: /h\n      timeout: "+tc.val+"\n")
		if got := cfg.Entries[0].Timeout; got != tc.want {
			t.Errorf("timeout: %s: got %v, Hermes %v", tc.val, got, tc.want)
		}
		w := warningsText(cfg)
		if tc.warn == "" && w != "" || !strings.Contains(w, tc.warn) {
			t.Errorf("timeout: %s: warnings %q, want %q", tc.val, w, tc.warn)
		}
	}
}

// A command or matcher is whatever PyYAML reads as a str: 0o755 is text
// (a program of that name), 1:30 an int (no command), 1e3 text (a
// matcher).
func TestCommandAndMatcherReadAsPyYAML(t *testing.T) {
	cfg := mustParse(t, "hooks:\n  pre_tool_call:\n    - command: 0o755\n      matcher: 1e3\n    - command: 1:30\n")
	if len(cfg.Entries) != 1 || cfg.Entries[0].Command != "0o755" || cfg.Entries[0].Matcher != "1e3" {
		t.Fatalf("entries: %+v", cfg.Entries)
	}
	if w := warningsText(cfg); !strings.Contains(w, "hooks.pre_tool_call[1] is missing a non-empty 'command' field") {
		t.Fatalf("warnings = %q", w)
	}
}

// PyYAML's safe_load, which Hermes loads config.yaml with, refuses a
// stream of two documents ("expected a single document in the stream"),
// so Hermes reads neither; yaml.v3's Unmarshal read the first and dropped
// the rest without a word. A second document is the file's error, at its
// line, as a merge PyYAML refuses is.
func TestSecondDocumentRefused(t *testing.T) {
	for doc, at := range map[string]string{
		"hooks:\n  pre_tool_call:\n    - command: /h\n---\nhooks: {}\n":               "/c.yaml:4:",
		"hooks:\n  pre_tool_call:\n    - command: /h\n...\n---\n":                     "/c.yaml:5:",
		"hooks:\n  pre_tool_call:\n    - command: /h\n---\n# nothing but a comment\n": "/c.yaml:4:",
	} {
		_, err := ParseConfig([]byte(doc), "/c.yaml")
		if err == nil || !strings.Contains(err.Error(), at) || !strings.Contains(err.Error(), "document") {
			t.Errorf("%q: err = %v", doc, err)
		}
	}
	for _, doc := range []string{"---\nhooks: {}\n", "hooks: {}\n...\n", "%YAML 1.1\n---\nhooks: {}\n", ""} {
		if _, err := ParseConfig([]byte(doc), "/c.yaml"); err != nil {
			t.Errorf("%q: one document, err = %v", doc, err)
		}
	}
}

// The keys only hermes-hooks reads kept their YAML 1.2 reading when
// PyYAML's typing came in (Resolve keeps yes/no text for them): a rule's
// message or expression that PyYAML would read as a base 60 number
// (10:30, 1:30.5) was text and loaded yesterday; refusing it now stops
// the whole config, and every gating event with it.
func TestOwnTextKeysKeepBase60Text(t *testing.T) {
	for _, msg := range []string{"10:30", "1:30.5", "-1:30"} {
		cfg, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - rule: 'true'\n      decision: block\n      message: "+msg+"\n"), "/c.yaml")
		if err != nil {
			t.Errorf("message: %s: %v", msg, err)
			continue
		}
		if got := cfg.Entries[0].Spec.(*RuleSpec).Message; got != msg {
			t.Errorf("message: %s read as %q", msg, got)
		}
	}
	// A number is no message, as before.
	if _, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - rule: 'true'\n      decision: block\n      message: 1030\n"), "/c.yaml"); err == nil || !strings.Contains(err.Error(), ".message must be a non-empty string") {
		t.Errorf("message: 1030: %v", err)
	}
}
