package hookconfig

import (
	"errors"
	"strings"
	"testing"
)

// The issue's example, verbatim.
const issueRuleYAML = `hooks:
  pre_tool_call:
    - matcher: terminal
      rule: 'args.command matches "(^|[;&|]\\s*)rm\\s+-[a-zA-Z]*r[a-zA-Z]*f"'
      decision: block
      message: "rm -rf is not allowed here"
      examples:
        - {args: {command: "rm -rf /"}, expect: block}
        - {args: {command: "ls -la"}, expect: none}
`

func TestParseRuleEntry(t *testing.T) {
	cfg, err := ParseConfig([]byte(issueRuleYAML), "/c.yaml")
	if err != nil || len(cfg.Entries) != 1 || len(cfg.Warnings) != 0 {
		t.Fatalf("issue example: %v, %+v", err, cfg)
	}
	e := cfg.Entries[0]
	r := e.Rule()
	if r == nil || r.Source != `args.command matches "(^|[;&|]\\s*)rm\\s+-[a-zA-Z]*r[a-zA-Z]*f"` || r.Decision != RuleBlock ||
		r.Message != "rm -rf is not allowed here" || r.Line != 4 || e.Command != "" || e.RunsCommand() || e.Matcher != "terminal" {
		t.Fatalf("entry: %+v, rule %+v", e, r)
	}
	if e.Text() != "rule: "+r.Source || e.NeedsApproval() {
		t.Fatalf("text %q, needs approval %v", e.Text(), e.NeedsApproval())
	}
	if len(e.Examples) != 2 || e.Examples[0].Tool != "terminal" || e.Examples[0].Invalid != "" || e.Examples[1].Expect != ExpectNone {
		t.Fatalf("examples: %+v", e.Examples)
	}
}

// What would make a rule mean something other than what it says stops
// the file from loading, naming its line.
func TestParseRuleEntryErrors(t *testing.T) {
	for _, tc := range []struct {
		entry string
		line  int
		want  string
	}{
		{"- rule: 'true'\n      command: ./x.sh\n      decision: block\n      message: m", 4, "rule: and command: cannot be in one entry"},
		{"- rule: 'true'\n      opa: http://x\n      decision: block\n      message: m", 4, "rule: and opa:"},
		{"- rule: 'true'\n      worker: true\n      decision: block\n      message: m", 4, "rule: and worker:"},
		{"- rule: 'true'\n      decision: blok\n      message: m", 4, "decision must be block, ask or context"},
		{"- rule: 'true'\n      message: m", 3, "needs decision"},
		{"- rule: 'true'\n      decision: block", 3, ".message must be a non-empty string"},
		{"- rule: ''\n      decision: block\n      message: m", 3, ".rule must be a non-empty string"},
		{"- rule: [a]\n      decision: block\n      message: m", 3, ".rule must be a non-empty string"},
	} {
		_, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    "+tc.entry+"\n"), "/c.yaml")
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Line != tc.line || !strings.Contains(ce.Error(), tc.want) || ce.Path != "/c.yaml" {
			t.Errorf("%q: %v (line %v), want line %d: %s", tc.entry, err, ce, tc.line, tc.want)
		}
	}
	// ask only where the event can ask; context only where it can add
	// context.
	_, err := ParseConfig([]byte("hooks:\n  post_tool_call:\n    - rule: 'true'\n      decision: ask\n      message: m\n"), "/c.yaml")
	if err == nil || !strings.Contains(err.Error(), "/c.yaml:4:") || !strings.Contains(err.Error(), "ask is not possible on post_tool_call") {
		t.Errorf("ask on post_tool_call: %v", err)
	}
	_, err = ParseConfig([]byte("hooks:\n  on_session_end:\n    - rule: 'true'\n      decision: block\n      message: m\n"), "/c.yaml")
	if err == nil || !strings.Contains(err.Error(), "block is not possible on on_session_end") {
		t.Errorf("block on on_session_end: %v", err)
	}
}

// A rule file holds rule entries; a literal block's rule starts on the
// line after its key.
func TestParseRuleLiteralLine(t *testing.T) {
	cfg, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - rule: |\n        tool == \"x\"\n      decision: context\n      message: m\n"), "/c.yaml")
	if err != nil || cfg.Entries[0].Rule().Line != 4 {
		t.Fatalf("%v %+v", err, cfg)
	}
}

func FuzzParseRuleEntry(f *testing.F) {
	f.Add([]byte(issueRuleYAML))
	f.Add([]byte("rules: [a.yaml]\nhooks:\n  pre_tool_call:\n    - rule: 'x'\n      decision: ask\n      message: m\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig(data, "/c.yaml")
		if err == nil {
			for _, e := range cfg.Entries {
				if r := e.Rule(); r != nil && (r.Source == "" || r.Message == "") {
					t.Fatalf("a rule entry without its text: %+v", r)
				}
			}
		}
	})
}
