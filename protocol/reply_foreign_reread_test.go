package protocol

import (
	"strings"
	"testing"
)

// The second reading of the foreign-dialect refusal (an attacker's): each
// case is a fail_closed guard's reply that was read as "no objection" (or,
// for the last ones, refused where it asked), with what it must be read
// as now.

type rereadCase struct {
	name   string
	d      Dialect
	event  string
	stdout string
	exit   int
	// has is in the failed-closed message; "" for any refusal.
	has string
}

var rereadRefusals = []rereadCase{
	// 1. Where exit 2 does nothing, stdout still speaks.
	{name: "permreq_exit2_action", d: Claude, event: "PermissionRequest", exit: 2, stdout: `{"action":"block"}`,
		has: `its reply's action "block" is the Hermes dialect's word`},
	{name: "permreq_exit2_permission", d: Claude, event: "PermissionRequest", exit: 2, stdout: `{"permission":"deny"}`,
		has: `its reply's permission "deny" is Cursor's word`},
	{name: "gateway_claude_exit2", d: Claude, event: "pre_gateway_dispatch", exit: 2, stdout: `{"action":"skip"}`},
	{name: "transform_input_claude_exit2", d: Claude, event: "transform_user_input", exit: 2, stdout: `{"action":"block"}`},
	// 2. Claude's own hookSpecificOutput, a member in another case.
	{name: "hso_Decision_case", d: Claude, event: "PermissionRequest",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","Decision":{"behavior":"deny"}}}`,
		has:    `its reply's key hookSpecificOutput.Decision.behavior ("deny") is decision.behavior in another case`},
	{name: "hso_Behavior_case", d: Claude, event: "PreToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","decision":{"Behavior":"deny"}}}`},
	// Beside the spelling Claude Code reads and allows, another case
	// that refuses is still a refusal nobody read.
	{name: "hso_case_twin_claude", d: Claude, event: "PreToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","PERMISSIONDECISION":"deny"}}`,
		has:    `its reply's key hookSpecificOutput.PERMISSIONDECISION ("deny") is permissionDecision in another case`},
	{name: "hso_case_twin_hermes", d: Hermes, event: "pre_tool_call",
		stdout: `{"hookSpecificOutput":{"decision":{"behavior":"allow","Behavior":"deny"}}}`,
		has:    `its reply's hookSpecificOutput.decision.Behavior "deny" is Claude Code's word`},
	// 3. A foreign key's value that is neither its no-objection nor a
	// listed refusal.
	{name: "permission_block", d: Hermes, event: "pre_tool_call", stdout: `{"permission":"block"}`,
		has: `its reply's permission "block" is Cursor's word`},
	{name: "permissionDecision_block", d: Hermes, event: "pre_tool_call", stdout: `{"permissionDecision":"block"}`},
	{name: "permissionDecision_denied", d: Hermes, event: "pre_tool_call", stdout: `{"permissionDecision":"denied"}`},
	{name: "continue_string", d: Hermes, event: "pre_tool_call", stdout: `{"continue":"false"}`},
	{name: "continue_zero", d: Hermes, event: "pre_tool_call", stdout: `{"continue":0}`},
	{name: "cancel_string", d: Hermes, event: "pre_tool_call", stdout: `{"cancel":"true"}`},
	{name: "cancel_one", d: Hermes, event: "pre_tool_call", stdout: `{"cancel":1}`},
	{name: "hso_permissionDecision_block", d: Hermes, event: "pre_tool_call",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"block"}}`},
	{name: "permission_block_claude", d: Claude, event: "PreToolUse", stdout: `{"permission":"block"}`},
	// 4. A key this dialect reads, but not on this event.
	{name: "hermes_action_on_skill_shell", d: Hermes, event: "PreSkillShellCommand", stdout: `{"action":"block"}`,
		has: `its reply's action "block" is the Hermes dialect's word, which the Hermes dialect does not read on PreSkillShellCommand: exit 2 with the reason on stderr to refuse`},
	{name: "hermes_decision_on_skill_shell", d: Hermes, event: "PreSkillShellCommand", stdout: `{"decision":"block"}`,
		has: `put dialect: claude on its entry`},
	{name: "claude_behavior_on_pretooluse", d: Claude, event: "PreToolUse",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","decision":{"behavior":"deny"}}}`,
		has:    `its reply's hookSpecificOutput.decision.behavior "deny" is Claude Code's word, which the Claude dialect does not read on PreToolUse`},
	{name: "claude_permissionDecision_on_prompt", d: Claude, event: "UserPromptSubmit",
		stdout: `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","permissionDecision":"deny"}}`,
		has:    `which the Claude dialect does not read on UserPromptSubmit`},
}

func TestForeignRefusalReread(t *testing.T) {
	for _, tc := range rereadRefusals {
		t.Run(tc.name, func(t *testing.T) {
			r := Reply{Dialect: tc.d, Event: ev(tc.event), Command: "g", ExitCode: tc.exit, Stdout: []byte(tc.stdout), Stderr: []byte("err"), FailClosed: true}
			got, note := ParseReply(r)
			if got == nil || got.Decision != DecisionBlock || !strings.HasPrefix(got.Message, "hook g failed closed: ") || !strings.Contains(got.Message, tc.has) {
				t.Fatalf("fail_closed %s on %s, exit %d, %s:\n got %s (note %q)\n want a failed-closed refusal holding %q",
					tc.d, tc.event, tc.exit, tc.stdout, contribString(got), note, tc.has)
			}
			r.FailClosed = false
			open, note := ParseReply(r)
			if !strings.Contains(note, strings.TrimPrefix(got.Message, "hook g failed closed: ")) {
				t.Errorf("not fail_closed: note %q, want it to say %q", note, got.Message)
			}
			if open != nil && open.Decision == DecisionBlock {
				t.Errorf("not fail_closed: %s, want the result left as it was", contribString(open))
			}
			if p := ReplyFormProblem(r.Event, tc.d, r.Stdout, tc.exit); !strings.Contains(got.Message, p) || p == "" {
				t.Errorf("ReplyFormProblem = %q, want the refusal's reason", p)
			}
		})
	}
}

// What stays: a correctly cased key read on this event, a no-objection
// value, and an ask said in two vocabularies (7).
func TestForeignRefusalRereadKeeps(t *testing.T) {
	for _, tc := range []struct {
		d      Dialect
		event  string
		stdout string
		exit   int
		want   *Contribution
	}{
		{Hermes, "pre_tool_call", `{"action":"approve","message":"m","permission":"ask"}`, 0, ask("m", "")},
		{Hermes, "pre_tool_call", `{"action":"approve","message":"m","permissionDecision":"ask","hookSpecificOutput":{"permissionDecision":"ask"}}`, 0, ask("m", "")},
		{Claude, "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"},"permission":"ask","action":"approve"}`, 0, &Contribution{Decision: DecisionAsk}},
		{Hermes, "pre_tool_call", `{"permission":"allow","permissionDecision":"Allow","continue":true,"cancel":false,"behavior":"allow","continue ":null}`, 0, nil},
		{Hermes, "pre_tool_call", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"defer","additionalContext":"x"}}`, 0, nil},
		{Claude, "PermissionRequest", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"no"}}}`, 0, deny("no")},
		{Claude, "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`, 0, &Contribution{Decision: DecisionAllow}},
	} {
		r := Reply{Dialect: tc.d, Event: ev(tc.event), Command: "g", ExitCode: tc.exit, Stdout: []byte(tc.stdout), FailClosed: true}
		got, note := ParseReply(r)
		if contribString(got) != contribString(tc.want) {
			t.Errorf("%s %s %s:\n got %s (note %q)\n want %s", tc.d, tc.event, tc.stdout, contribString(got), note, contribString(tc.want))
		}
	}
}

// 5. test and doctor see what the exit code decided: an exit-2 block of a
// guard that is not fail_closed guards something.
func TestReplyFormProblemExit2(t *testing.T) {
	for _, tc := range []struct {
		d      Dialect
		event  string
		stdout string
	}{
		{Hermes, "pre_tool_call", `{"permission":"deny"}`},
		{Claude, "PreToolUse", `{"action":"block"}`},
	} {
		if p := ReplyFormProblem(ev(tc.event), tc.d, []byte(tc.stdout), 2); p != "" {
			t.Errorf("%s %s exit 2: ReplyFormProblem = %q, want none (exit 2 refused)", tc.d, tc.event, p)
		}
		if p := ReplyFormProblem(ev(tc.event), tc.d, []byte(tc.stdout), 0); p == "" {
			t.Errorf("%s %s exit 0: ReplyFormProblem = \"\", want the foreign refusal", tc.d, tc.event)
		}
	}
}

// 6. A note that only echoes the words of a foreign note (a hook's own
// text) is no foreign refusal: not a failure, no problem for test.
func TestForeignNoteNotByText(t *testing.T) {
	for _, tc := range []struct {
		d      Dialect
		event  string
		stdout string
	}{
		{Hermes, "post_tool_call", `x dialect does not read: y`},
		{Claude, "PostToolUse", `{"hookSpecificOutput":{"hookEventName":"x dialect does not read: y"}}`},
		{Claude, "PreToolUse", `{"hookSpecificOutput":{"hookEventName":"x in another case, which no dialect reads"}}`},
	} {
		r := Reply{Dialect: tc.d, Event: ev(tc.event), Command: "g", Stdout: []byte(tc.stdout)}
		rd := ReadReply(r)
		if rd.Foreign != "" {
			t.Errorf("%s %s %s: Foreign = %q, want none", tc.d, tc.event, tc.stdout, rd.Foreign)
		}
		if p := ReplyFormProblem(r.Event, tc.d, r.Stdout, 0); p != "" {
			t.Errorf("%s %s %s: ReplyFormProblem = %q, want none", tc.d, tc.event, tc.stdout, p)
		}
	}
	// The report carries the flag, not the text: the same note without it
	// is no failure, with it one.
	code := 0
	note := "hookSpecificOutput.hookEventName \"x dialect does not read: y\" does not match PostToolUse; ignored"
	if got := (&HookReport{ExitCode: &code, Note: note}).Failure(); got != "" {
		t.Errorf("Failure() of an echoed note = %q, want none", got)
	}
	if got := (&HookReport{ExitCode: &code, Note: "n", ForeignRefusal: true}).Failure(); got != "n" {
		t.Errorf("Failure() of a foreign refusal = %q, want its note", got)
	}
}
