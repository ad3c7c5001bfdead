package report

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

func TestCheckExample(t *testing.T) {
	ran := []protocol.HookReport{{Ran: true}}
	for _, tc := range []struct {
		name   string
		expect hookconfig.Expect
		reason string
		o      protocol.Outcome
		pass   bool
		got    string
	}{
		{"block", hookconfig.ExpectBlock, "", protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no", Hooks: ran}, true, "block: no"},
		{"block with its reason", hookconfig.ExpectBlock, "no", protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no way", Hooks: ran}, true, "block: no way"},
		{"block for another reason", hookconfig.ExpectBlock, "rm -rf", protocol.Outcome{Decision: protocol.DecisionBlock, Message: "jq missing", Hooks: ran}, false, `block: jq missing (the reason lacks "rm -rf")`},
		{"expected block, let through", hookconfig.ExpectBlock, "", protocol.Outcome{Decision: protocol.DecisionNone, Hooks: ran}, false, "none"},
		{"none", hookconfig.ExpectNone, "", protocol.Outcome{Decision: protocol.DecisionNone, Hooks: ran}, true, "none"},
		{"an explicit allow lets it through", hookconfig.ExpectNone, "", protocol.Outcome{Decision: protocol.DecisionAllow, Hooks: ran}, true, "allow"},
		{"allow wants an allow", hookconfig.ExpectAllow, "", protocol.Outcome{Decision: protocol.DecisionNone, Hooks: ran}, false, "none"},
		{"a rewrite is not none", hookconfig.ExpectNone, "", protocol.Outcome{Args: map[string]any{"command": "ls -a"}, Hooks: ran}, false, `rewrite: args {"command":"ls -a"}`},
		{"rewrite", hookconfig.ExpectRewrite, "", protocol.Outcome{Args: map[string]any{}, Hooks: ran}, true, "rewrite: args {}"},
		{"context", hookconfig.ExpectContext, "branch", protocol.Outcome{Context: "on branch main", Hooks: ran}, true, "context: on branch main"},
		{"ask", hookconfig.ExpectAsk, "", protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?", Hooks: ran}, true, "ask: sure?"},
		{"not selected", hookconfig.ExpectNone, "", protocol.Outcome{}, true, "none (the hook's matcher does not select this call)"},
		{"not selected, but a block was expected", hookconfig.ExpectBlock, "", protocol.Outcome{}, false, "none (the hook's matcher does not select this call)"},
		// fail_closed turned the crash into a block: the guard blocked
		// by breaking, which proves nothing.
		{"failed closed", hookconfig.ExpectBlock, "", protocol.Outcome{Decision: protocol.DecisionBlock, Message: "failed closed",
			Hooks: []protocol.HookReport{{Ran: true, Error: "command not found"}}}, false, "the hook failed: command not found"},
		{"timed out", hookconfig.ExpectBlock, "", protocol.Outcome{Decision: protocol.DecisionBlock, Hooks: []protocol.HookReport{{TimedOut: true}}}, false, "the hook timed out"},
		// A rule past its time bound times out as a command does, its
		// error's words beside it.
		{"a rule timed out", hookconfig.ExpectBlock, "", protocol.Outcome{Hooks: []protocol.HookReport{{TimedOut: true, Error: "rule evaluation passed its time bound"}}},
			false, "the hook timed out (rule evaluation passed its time bound)"},
		{"shadow", hookconfig.ExpectBlock, "", protocol.Outcome{Hooks: []protocol.HookReport{{Ran: true, Shadow: true, Would: "block: no"}}}, false, "none (mode: shadow, would block: no)"},
		{"skipped", hookconfig.ExpectNone, "", protocol.Outcome{Hooks: []protocol.HookReport{{Skipped: "not allowlisted"}}}, false, "the hook did not run: not allowlisted"},
	} {
		ex := &hookconfig.Example{Tool: "terminal", Expect: tc.expect, Reason: tc.reason}
		pass, got := checkExample(ex, &tc.o)
		if pass != tc.pass || got != tc.got {
			t.Errorf("%s: (%v, %q), want (%v, %q)", tc.name, pass, got, tc.pass, tc.got)
		}
	}
}

func TestExamplesNeverRunWhatDispatchWouldNot(t *testing.T) {
	e := &hookconfig.Entry{Command: "./x.sh", DeclaredAs: "pre_tool_call", Examples: []hookconfig.Example{{Tool: "terminal", Expect: hookconfig.ExpectNone}}}
	for _, st := range []HookStatus{
		{Entry: e},
		{Entry: e, Approved: true, Drift: consent.Drift{Kind: consent.DriftHash}},
		{Entry: &hookconfig.Entry{Command: "./x.sh", DeclaredAs: "PreToolUse", RunBy: "claude", Examples: e.Examples}, Approved: true},
	} {
		// No Gate: Run would fail loudly if it tried to build a dispatcher.
		h := ExampleRunner{}.Run(t.Context(), &st)
		if h.NotRun == "" || len(h.Results) != 0 || !strings.Contains(h.NotRun, "examples not run") {
			t.Errorf("%+v: ran (%q, %v)", st, h.NotRun, h.Results)
		}
	}
}

// A rule's heading above its examples stays one line: a long rule is cut,
// with the file and line that hold it; a short rule and a command are
// shown whole.
func TestExampleHeading(t *testing.T) {
	pre, _ := protocol.Lookup("pre_tool_call")
	rule := func(src string) *hookconfig.Entry {
		return &hookconfig.Entry{Event: pre, Source: "/r/team.yaml",
			Spec: &hookconfig.RuleSpec{Source: src, Decision: "block", Message: "m", Line: 12}}
	}
	long := `args.command matches "` + strings.Repeat("(a|b)", 60) + `"`
	for _, tc := range []struct {
		e    *hookconfig.Entry
		want string
	}{
		{rule(`args.command contains "x"`), `rule: args.command contains "x"`},
		{rule(long), "rule: " + long[:91] + "... (/r/team.yaml:12)"},
		{&hookconfig.Entry{Event: pre, Command: "/h/" + strings.Repeat("g", 200) + ".sh"}, "/h/" + strings.Repeat("g", 200) + ".sh"},
	} {
		if got := ExampleHeading(tc.e); got != tc.want {
			t.Errorf("heading\n got %q\nwant %q", got, tc.want)
		}
	}
}
