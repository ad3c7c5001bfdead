package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// validate compiles every rule (an error at the line of the bad part) and
// evaluates every rule example (a failing one is an error at its line);
// Inspect says a rule of the user's config needs no approval and whether
// each rule compiles.
func TestRuleProblemsAndStatus(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	yaml := `hooks:
  pre_tool_call:
    - matcher: terminal
      rule: |
        tool == "terminal" &&
        args.command matches "("
      decision: block
      message: m
    - matcher: write_file
      rule: 'hasPrefix(args?.path ?? "", cwd + "/")'
      decision: context
      message: inside
      examples:
        - {cwd: /nowhere, args: {path: /nowhere/x}, expect: context, reason: inside}
        - {cwd: /nowhere, args: {path: /etc/x}, expect: context}
        - {tool: terminal, args: {command: ls}, expect: none}
`
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := hookconfig.Load(path, hookconfig.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ps := Validate(cfg, dir, nil)
	if len(ps) != 2 || Errors(ps) != 2 {
		t.Fatalf("problems: %+v", ps)
	}
	if ps[0].Line != 6 || !strings.Contains(ps[0].Message, "does not compile: error parsing regexp") {
		t.Errorf("syntax error: %+v", ps[0])
	}
	if ps[1].Line != 15 || ps[1].Key != "hooks.pre_tool_call[1].examples[1]" || !strings.Contains(ps[1].Message, "expected context, got none") {
		t.Errorf("failing example: %+v", ps[1])
	}
	sts := Inspect(cfg, &consent.File{}, dir)
	if !sts[0].NoApproval || !sts[0].Approved || !sts[0].Runs() || !strings.HasPrefix(sts[0].StartProblem, path+":6: ") || sts[1].StartProblem != "" || sts[1].TextOnly != "" {
		t.Fatalf("statuses: %+v", sts)
	}
	// A repository's rule needs an approval.
	cfg.Entries[1].Scope = consent.Scope{Project: dir, Source: path}
	if st := Inspect(&hookconfig.Config{Entries: cfg.Entries[1:]}, &consent.File{}, dir)[0]; st.NoApproval || st.Approved {
		t.Fatalf("a repository's rule: %+v", st)
	}
}

// anyToolError is asked about each hook doctor smoke-runs, and only a
// rule has a rule to evaluate: a command hook every tool's call reaches
// (no matcher) is no rule, and doctor crashed on it (nil RuleSpec).
func TestAnyToolErrorOnACommandHook(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.yaml")
	yaml := "hooks:\n  pre_tool_call:\n    - command: ./guard.sh\n"
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := hookconfig.Load(path, hookconfig.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if msg := anyToolError(t.Context(), cfg.Entries[0], cfg.Tools, dir); msg != "" {
		t.Fatalf("a command hook: %q", msg)
	}
}
