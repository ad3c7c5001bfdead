package hookconfig

import (
	"errors"
	"fmt"
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
		// Claude Code's word for a refusal: no did-you-mean is near it.
		{"- rule: 'true'\n      decision: deny\n      message: m", 4, "decision must be block, ask or context; got 'deny' (Claude Code's deny is block here)"},
		{"- rule: 'true'\n      message: m", 3, "needs decision"},
		{"- rule: 'true'\n      decision: block", 3, ".message must be a non-empty string"},
		{"- rule: ''\n      decision: block\n      message: m", 3, ".rule must be a non-empty string"},
		{"- rule: [a]\n      decision: block\n      message: m", 3, ".rule must be a non-empty string"},
		// A key given twice: readers of YAML disagree on which counts
		// (PyYAML and most tools: the last; a first-match read: the
		// first), so what a reviewer reads may not be what decides.
		{"- rule: 'true'\n      decision: block\n      message: m\n      decision: context", 6, "key 'decision' is given twice (lines 4 and 6)"},
		{"- rule: 'args.command matches \"rm\"'\n      decision: block\n      message: m\n      rule: 'false'", 6, "key 'rule' is given twice (lines 3 and 6)"},
		{"- rule: 'true'\n      mode: enforce\n      decision: block\n      message: m\n      mode: shadow", 7, "key 'mode' is given twice (lines 4 and 7)"},
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

// On a stop event a hook's block keeps the agent going, its message the
// next instruction (Hermes "continue", Claude Code's decision "block"):
// a rule's block there is the same, not an error that keeps the file from
// loading.
func TestParseRuleBlockOnStop(t *testing.T) {
	for _, ev := range []string{"pre_verify", "Stop", "subagent_stop", "SubagentStop"} {
		cfg, err := ParseConfig([]byte("hooks:\n  "+ev+":\n    - rule: 'true'\n      decision: block\n      message: run the tests first\n"), "/c.yaml")
		if err != nil || len(cfg.Entries) != 1 || cfg.Entries[0].Rule().Decision != RuleBlock {
			t.Errorf("block on %s: %v", ev, err)
		}
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
		checkNoPanic(t, err)
		if err == nil {
			for _, e := range cfg.Entries {
				if r := e.Rule(); r != nil && (r.Source == "" || r.Message == "") {
					t.Fatalf("a rule entry without its text: %+v", r)
				}
			}
		}
	})
}

// Rules with one expression and different decisions are two entries; a
// rule's keys on a command entry are reported.
func TestRuleDuplicatesAndStrayKeys(t *testing.T) {
	cfg, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - rule: 'true'\n      decision: block\n      message: a\n"+
		"    - rule: 'true'\n      decision: context\n      message: b\n    - rule: 'true'\n      decision: block\n      message: a\n"+
		"    - command: ./g.sh\n      decision: block\n"), "/c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Entries) != 3 || len(cfg.Listed) != 4 || !cfg.Listed[2].Duplicate {
		t.Fatalf("entries %d, listed %d", len(cfg.Entries), len(cfg.Listed))
	}
	if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0].String(), "hooks.pre_tool_call[3].decision is read on rule: entries only") {
		t.Fatalf("warnings: %v", cfg.Warnings)
	}
}

// rule: is a key of the config's own entries: in an agent's hook file (a
// Claude Code settings handler, a pasted Claude group) it makes nothing a
// rule, and the file still loads.
func TestRuleKeyInAgentFilesIsNoRule(t *testing.T) {
	entries, _, err := parseClaudeSettings([]byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[
		{"type":"command","command":"./g.sh","rule":"true","decision":"block","message":"m"}]}]}}`), "/s.json")
	if err != nil || len(entries) != 1 || entries[0].Rule() != nil || entries[0].Command != "./g.sh" {
		t.Fatalf("%v %+v", err, entries)
	}
	cfg, err := ParseConfig([]byte("hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - {type: command, command: ./g.sh, rule: 'true'}\n"), "/c.yaml")
	if err != nil || len(cfg.Entries) != 1 || cfg.Entries[0].Rule() != nil {
		t.Fatalf("%v %+v", err, cfg)
	}
}

// cwd: is an example key of rules only: a hook's example must not move
// where the hook runs.
func TestExampleCwdForRulesOnly(t *testing.T) {
	cfg, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n"+
		"    - rule: 'cwd == \"/a\"'\n      matcher: write_file\n      decision: block\n      message: m\n      examples:\n        - {cwd: /a, args: {path: x}, expect: block}\n"+
		"    - command: ./g.sh\n      matcher: write_file\n      examples:\n        - {cwd: /a, args: {path: x}, expect: none}\n"), "/c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r, h := cfg.Entries[0].Examples[0], cfg.Entries[1].Examples[0]
	if r.Cwd != "/a" || r.Tool != "write_file" || h.Cwd != "" || h.Tool != "write_file" {
		t.Fatalf("rule example %+v, hook example %+v", r, h)
	}
	if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0].String(), "hooks.pre_tool_call[1].examples[0]: unknown key 'cwd' is ignored") {
		t.Fatalf("warnings: %v", cfg.Warnings)
	}
}

// A rule is named in the journal and in what is exported by its id:, else
// by its file and line; an id that could not stand as it is in a journal
// line, a syslog parameter or an OTLP attribute stops the file, and id:
// on a command entry is said to be ignored.
func TestRuleID(t *testing.T) {
	cfg, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - rule: 'true'\n      id: team/no-rm-rf:v2\n      decision: block\n      message: a\n"+
		"    - rule: 'false'\n      decision: block\n      message: b\n    - command: ./g.sh\n      id: x\n"), "/c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Entries[0].Rule().Identity("/c.yaml"); got != "team/no-rm-rf:v2" {
		t.Errorf("identity with id: %q", got)
	}
	if got := cfg.Entries[1].Rule().Identity("/c.yaml"); got != "/c.yaml:7" {
		t.Errorf("identity without id: %q, want the file and the rule's line", got)
	}
	if len(cfg.Warnings) != 1 || !strings.Contains(cfg.Warnings[0].String(), "hooks.pre_tool_call[2].id is read on rule: entries only") {
		t.Errorf("warnings: %v", cfg.Warnings)
	}
	// An id spelt as a file and line is how a rule without one is named:
	// a repository's rule must not read in log --hook, replay or an
	// export as the user's rule at that place.
	for _, id := range []string{"/home/u/.hermes/config.yaml:4", "config.yaml:12", "'rules/team.yaml:007'", "x:1"} {
		_, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - rule: 'true'\n      id: "+id+"\n      decision: block\n      message: a\n"), "/c.yaml")
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Line != 4 || !strings.Contains(err.Error(), "a file and line") {
			t.Errorf("id %s shaped like a place: %v", id, err)
		}
	}
	for _, id := range []string{"team/no-rm-rf:v2", "cve:2024a", "a:1b", "x1"} {
		if _, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - rule: 'true'\n      id: "+id+"\n      decision: block\n      message: a\n"), "/c.yaml"); err != nil {
			t.Errorf("id %s: %v", id, err)
		}
	}
	for _, id := range []string{"''", "[a]", "'a b'", "'a\"b'", "'a]b'", "'" + strings.Repeat("x", 129) + "'", "'é'", "'a=b'"} {
		_, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - rule: 'true'\n      id: "+id+"\n      decision: block\n      message: a\n"), "/c.yaml")
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Line != 4 || !strings.Contains(err.Error(), ".id must be a name of 1 to 128") {
			t.Errorf("id %s: %v", id, err)
		}
	}
}

// A rule's keys on an opa: entry say that OPA's answer decides, not a
// command's reply: the entry runs no command.
func TestRuleKeysOnOPAEntry(t *testing.T) {
	cfg, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - opa: http://127.0.0.1:8181/v1/data/hermes/pre_tool_call\n      decision: block\n"), "/c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	got := fmt.Sprint(cfg.Warnings)
	if len(cfg.Warnings) != 1 || !strings.Contains(got, "hooks.pre_tool_call[0].decision is read on rule: entries only") ||
		strings.Contains(got, "a command") || !strings.Contains(got, "OPA's answer") {
		t.Fatalf("warnings: %v", got)
	}
}
