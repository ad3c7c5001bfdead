package protocol

import (
	"reflect"
	"strings"
	"testing"
)

// A guard whose reply refuses in another dialect's words (a Claude Code
// hook copied under a Hermes event without dialect: claude, a Cursor
// script, a key in another case) has not said "no objection": its parser
// read nothing. A fail_closed guard on a gating event then refuses, saying
// whose words they are and how to fix the entry; any other hook keeps its
// result, and the note says the same (test, doctor and the agent's stderr
// show it).

const failedPrefix = "hook /hooks/guard.sh --strict failed closed: "

var hermesForeignCases = []replyCase{
	{name: "claude_hso_deny", event: "pre_tool_call", failClosed: true,
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"}}`,
		want: block(failedPrefix + `its reply's hookSpecificOutput.permissionDecision "deny" is Claude Code's word, which the Hermes dialect does not read: ` +
			`put dialect: claude on its entry, or reply {"action": "block", "message": "…"}`)},
	{name: "claude_hso_ask", event: "pre_tool_call", failClosed: true,
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}`,
		want: block(failedPrefix + `its reply's hookSpecificOutput.permissionDecision "ask" is Claude Code's word, which the Hermes dialect does not read: ` +
			`put dialect: claude on its entry, or reply {"action": "block", "message": "…"}`)},
	{name: "claude_behavior_deny", event: "pre_tool_call", failClosed: true,
		stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"m"}}}`,
		want: block(failedPrefix + `its reply's hookSpecificOutput.decision.behavior "deny" is Claude Code's word, which the Hermes dialect does not read: ` +
			`put dialect: claude on its entry, or reply {"action": "block", "message": "…"}`)},
	{name: "claude_continue_false", event: "pre_tool_call", failClosed: true,
		stdout: `{"continue":false,"stopReason":"r"}`,
		want: block(failedPrefix + `its reply's continue false is Claude Code's word, which the Hermes dialect does not read: ` +
			`put dialect: claude on its entry, or reply {"action": "block", "message": "…"}`)},
	{name: "copilot_permissionDecision", event: "pre_tool_call", failClosed: true,
		stdout: `{"permissionDecision":"deny"}`,
		want:   block(failedPrefix + `its reply's permissionDecision "deny" is Copilot CLI's word, which the Hermes dialect does not read: reply {"action": "block", "message": "…"} to refuse`)},
	{name: "cursor_permission", event: "pre_tool_call", failClosed: true,
		stdout: `{"permission":"deny","user_message":"no"}`,
		want:   block(failedPrefix + `its reply's permission "deny" is Cursor's word, which the Hermes dialect does not read: reply {"action": "block", "message": "…"} to refuse`)},
	{name: "cline_cancel", event: "pre_tool_call", failClosed: true,
		stdout: `{"cancel":true,"errorMessage":"no"}`,
		want:   block(failedPrefix + `its reply's cancel true is Cline's word, which the Hermes dialect does not read: reply {"action": "block", "message": "…"} to refuse`)},
	{name: "action_in_another_case", event: "pre_tool_call", failClosed: true,
		stdout: `{"Action":"block"}`,
		want:   block(failedPrefix + `its reply's key Action ("block") is action in another case, which no dialect reads: keys are case-sensitive`)},
	{name: "hso_in_another_case", event: "pre_tool_call", failClosed: true,
		stdout: `{"HookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`,
		want: block(failedPrefix + `its reply's key HookSpecificOutput (.permissionDecision "deny") is hookSpecificOutput in another case, which no dialect reads: ` +
			`keys are case-sensitive`)},
	// A key that folds to a word only by Unicode's case folding (the
	// Kelvin sign for k) is the word in another case too: refused, never
	// read as the word.
	{name: "kelvin_sign_key", event: "pre_tool_call", failClosed: true,
		stdout: "{\"hoo\u212aSpecificOutput\":{\"permissionDecision\":\"deny\"}}",
		want: block(failedPrefix + "its reply's key hoo\u212aSpecificOutput (.permissionDecision \"deny\") is hookSpecificOutput in another case, which no dialect reads: " +
			"keys are case-sensitive")},
	{name: "foreign_value_in_another_case", event: "pre_tool_call", failClosed: true,
		stdout: `{"permission":"DENY"}`,
		want:   block(failedPrefix + `its reply's permission "DENY" is Cursor's word, which the Hermes dialect does not read: reply {"action": "block", "message": "…"} to refuse`)},
	// Beside a Hermes word that does not refuse, another dialect's refusal
	// is still one the guard meant: which it meant cannot be read.
	{name: "beside_an_allow", event: "pre_tool_call", failClosed: true,
		stdout: `{"decision":"allow","permission":"deny"}`,
		want:   block(failedPrefix + `its reply's permission "deny" is Cursor's word, which the Hermes dialect does not read: reply {"action": "block", "message": "…"} to refuse`)},
	{name: "gateway_continue_false", event: "pre_gateway_dispatch", failClosed: true,
		stdout: `{"continue":false}`,
		want: block(failedPrefix + `its reply's continue false is Claude Code's word, which the Hermes dialect does not read: ` +
			`put dialect: claude on its entry, or reply {"action": "skip", "reason": "…"}`)},

	// What stays as it was.
	{name: "own_block_beside_foreign", event: "pre_tool_call", failClosed: true,
		stdout: `{"action":"block","message":"m","permission":"deny"}`, want: block("m")},
	{name: "empty_object", event: "pre_tool_call", failClosed: true, stdout: `{}`, want: nil, noteEmpty: true},
	{name: "empty_stdout", event: "pre_tool_call", failClosed: true, stdout: ``, want: nil, noteEmpty: true},
	{name: "foreign_allow", event: "pre_tool_call", failClosed: true,
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"},"permission":"allow","continue":true,"cancel":false}`,
		want:   nil, noteEmpty: true},
	{name: "key_in_another_case_allowing", event: "pre_tool_call", failClosed: true, stdout: `{"Action":"allow"}`, want: nil, noteEmpty: true},
	{name: "not_where_nothing_fails_closed", event: "post_tool_call", failClosed: true, stdout: `{"permission":"deny"}`, want: nil, noteEmpty: true},
	{name: "exit2_still_blocks", event: "pre_tool_call", failClosed: true, exit: 2, stderr: "no", stdout: `{"permission":"deny"}`, want: block("no")},

	// Without fail_closed: the result stays, the note says why.
	{name: "fail_open_claude_hso", event: "pre_tool_call",
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`, want: nil,
		noteHas: `its reply's hookSpecificOutput.permissionDecision "deny" is Claude Code's word, which the Hermes dialect does not read: put dialect: claude on its entry`},
	{name: "fail_open_case", event: "pre_tool_call", stdout: `{"Action":"block"}`, want: nil,
		noteHas: `its reply's key Action ("block") is action in another case, which no dialect reads`},
}

var claudeForeignCases = []replyCase{
	{name: "hermes_action_block", event: "PreToolUse", failClosed: true,
		stdout: `{"action":"block","message":"m"}`,
		want: deny(failedPrefix + `its reply's action "block" is the Hermes dialect's word, which the Claude dialect does not read: ` +
			`drop dialect: claude from its entry, or reply {"decision": "block", "reason": "…"}`)},
	{name: "hermes_gateway_skip", event: "UserPromptSubmit", failClosed: true,
		stdout: `{"action":"skip"}`,
		want: deny(failedPrefix + `its reply's action "skip" is the Hermes dialect's word, which the Claude dialect does not read: ` +
			`drop dialect: claude from its entry, or reply {"decision": "block", "reason": "…"}`)},
	{name: "copilot_flat_permissionDecision", event: "PreToolUse", failClosed: true,
		stdout: `{"permissionDecision":"deny","permissionDecisionReason":"r"}`,
		want:   deny(failedPrefix + `its reply's permissionDecision "deny" is Copilot CLI's word, which the Claude dialect does not read: reply {"decision": "block", "reason": "…"} to refuse`)},
	{name: "cursor_permission", event: "PreToolUse", failClosed: true, stdout: `{"permission":"deny"}`,
		want: deny(failedPrefix + `its reply's permission "deny" is Cursor's word, which the Claude dialect does not read: reply {"decision": "block", "reason": "…"} to refuse`)},
	{name: "cline_cancel", event: "Stop", failClosed: true, stdout: `{"cancel":true}`,
		want: deny(failedPrefix + `its reply's cancel true is Cline's word, which the Claude dialect does not read: reply {"decision": "block", "reason": "…"} to refuse`)},
	{name: "decision_in_another_case", event: "PreToolUse", failClosed: true, stdout: `{"Decision":"block"}`,
		want: deny(failedPrefix + `its reply's key Decision ("block") is decision in another case, which no dialect reads: keys are case-sensitive`)},
	{name: "continue_in_another_case", event: "PreToolUse", failClosed: true, stdout: `{"Continue":false}`,
		want: deny(failedPrefix + `its reply's key Continue (false) is continue in another case, which no dialect reads: keys are case-sensitive`)},
	{name: "hso_member_in_another_case", event: "PreToolUse", failClosed: true,
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","PermissionDecision":"deny"}}`,
		want: deny(failedPrefix + `its reply's key hookSpecificOutput.PermissionDecision ("deny") is permissionDecision in another case, which no dialect reads: ` +
			`keys are case-sensitive`)},
	{name: "beside_an_approve", event: "PreToolUse", failClosed: true, stdout: `{"decision":"approve","action":"block"}`,
		want: deny(failedPrefix + `its reply's action "block" is the Hermes dialect's word, which the Claude dialect does not read: ` +
			`drop dialect: claude from its entry, or reply {"decision": "block", "reason": "…"}`)},

	// What stays as it was.
	{name: "own_deny_beside_foreign", event: "PreToolUse", failClosed: true,
		stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r"},"action":"block"}`,
		want:   deny("r")},
	{name: "own_stop_beside_foreign", event: "PreToolUse", failClosed: true,
		stdout: `{"continue":false,"stopReason":"s","action":"block"}`,
		want:   &Contribution{Stop: true, StopReason: "s"}},
	{name: "empty_object", event: "PreToolUse", failClosed: true, stdout: `{}`, want: nil, noteEmpty: true},
	{name: "empty_stdout", event: "PreToolUse", failClosed: true, stdout: ``, want: nil, noteEmpty: true},
	{name: "foreign_allow", event: "PreToolUse", failClosed: true, stdout: `{"action":"allow","permission":"allow"}`, want: nil, noteEmpty: true},
	{name: "not_where_nothing_refuses", event: "SessionEnd", failClosed: true, stdout: `{"action":"block"}`, want: nil, noteEmpty: true},
	{name: "exit2_still_blocks", event: "PreToolUse", failClosed: true, exit: 2, stderr: "no", stdout: `{"action":"block"}`, want: deny("no")},

	// Without fail_closed: the result stays, the note says why.
	{name: "fail_open_hermes_action", event: "PreToolUse", stdout: `{"action":"block"}`, want: nil,
		noteHas: `its reply's action "block" is the Hermes dialect's word, which the Claude dialect does not read: drop dialect: claude from its entry`},
}

func TestHermesForeignRefusal(t *testing.T) {
	for _, tc := range hermesForeignCases {
		t.Run(tc.name, func(t *testing.T) { runReplyCase(t, Hermes, tc) })
	}
}

func TestClaudeForeignRefusal(t *testing.T) {
	for _, tc := range claudeForeignCases {
		t.Run(tc.name, func(t *testing.T) { runReplyCase(t, Claude, tc) })
	}
}

// The note of a fail-open foreign refusal is a reply that is not one
// (Failure): the agent shows the user a hook of its own that failed so, and
// the hooks it runs through hermes-hooks must fail as visibly.
func TestForeignRefusalNoteIsAFailure(t *testing.T) {
	for _, tc := range []struct {
		d  Dialect
		tc replyCase
	}{{Hermes, hermesForeignCases[len(hermesForeignCases)-1]}, {Claude, claudeForeignCases[len(claudeForeignCases)-1]}} {
		rd := ReadReply(tc.tc.reply(tc.d))
		note := rd.Note
		code := 0
		rep := HookReport{ExitCode: &code, Note: note, ForeignRefusal: rd.Foreign != ""}
		if got := rep.Failure(); note == "" || got != note {
			t.Errorf("%s %s: Failure() = %q, want the note %q", tc.d, tc.tc.name, got, note)
		}
	}
}

// ReplyFormProblem shows test and doctor the same problem, for a guard
// whether or not fail_closed.
func TestReplyFormProblemForeign(t *testing.T) {
	for _, tc := range []struct {
		ev     string
		d      Dialect
		stdout string
		want   string
	}{
		{"pre_tool_call", Hermes, `{"permission":"deny"}`, `its reply's permission "deny" is Cursor's word, which the Hermes dialect does not read`},
		{"pre_tool_call", Hermes, ` {"continue":false} `, `its reply's continue false is Claude Code's word`},
		{"PreToolUse", Claude, `{"action":"block"}`, `its reply's action "block" is the Hermes dialect's word`},
		{"pre_gateway_dispatch", Hermes, `{"action":"allow","continue":false}`, `its reply's continue false is Claude Code's word`},
		{"pre_gateway_dispatch", Hermes, `{"action":"block"}`, `is the tool-call form`},
		{"pre_tool_call", Hermes, `{"action":"block","permission":"deny"}`, ""},
		{"pre_tool_call", Hermes, `{}`, ""},
		{"pre_tool_call", Hermes, `not json`, ""},
		{"post_tool_call", Hermes, `{"permission":"deny"}`, ""},
		{"PreToolUse", Claude, `{"decision":"block","action":"block"}`, ""},
		{"PreToolUse", Dialect("cursor-like"), `{"action":"block"}`, ""},
	} {
		got := ReplyFormProblem(ev(tc.ev), tc.d, []byte(tc.stdout), 0)
		if tc.want == "" && got != "" || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("ReplyFormProblem(%s, %s, %s) = %q, want %q", tc.ev, tc.d, tc.stdout, got, tc.want)
		}
	}
}

// FuzzForeignRefusal: for any reply, in either dialect, on any event, the
// note a hook that is not fail_closed gets for another dialect's refusal
// (and the problem test and doctor show) means a fail_closed guard
// refuses; a guard's own refusal is never replaced; the reading is the
// same every time (map order does not choose the word named).
func FuzzForeignRefusal(f *testing.F) {
	for _, tc := range hermesForeignCases {
		f.Add(tc.stdout, tc.exit, eventIndex(tc.event), false)
	}
	for _, tc := range claudeForeignCases {
		f.Add(tc.stdout, tc.exit, eventIndex(tc.event), true)
	}
	f.Add(`{"PERMISSION":"Ask","Cancel":true,"aCtIoN":"SKIP","hookspecificoutput":{"DECISION":{"Behavior":"DENY"}}}`, 0, eventIndex("pre_tool_call"), false)
	f.Add(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","PERMISSIONDECISION":"deny"}}`, 0, eventIndex("PreToolUse"), true)
	for _, tc := range rereadRefusals {
		f.Add(tc.stdout, tc.exit, eventIndex(tc.event), tc.d == Claude)
	}
	f.Fuzz(func(t *testing.T, stdout string, exit int, evIdx uint8, claude bool) {
		d := Hermes
		if claude {
			d = Claude
		}
		e := eventAt(evIdx)
		r := Reply{Dialect: d, Event: e, Command: "fuzz hook", ExitCode: exit, Stdout: []byte(stdout)}
		rd := ReadReply(r)
		open, note := rd.Contribution, rd.Note
		if again := ReadReply(r); note != again.Note || rd.Foreign != again.Foreign {
			t.Fatalf("reading differs between two readings:\n%q %q\n%q %q", note, rd.Foreign, again.Note, again.Foreign)
		}
		// Whether the reply refused in unread words is the parser's to
		// say (Read.Foreign), never the note's text: a note echoes what
		// the hook printed.
		foreign := rd.Foreign != ""
		if foreign && !strings.Contains(note, rd.Foreign) {
			t.Fatalf("foreign refusal %q is not in the note %q", rd.Foreign, note)
		}
		if problem := ReplyFormProblem(e, d, []byte(stdout), exit); foreign && problem != rd.Foreign {
			t.Fatalf("foreign refusal %q but ReplyFormProblem says %q", rd.Foreign, problem)
		}
		r.FailClosed = true
		closed, _ := ParseReply(r)
		if open != nil && open.Decision == DecisionBlock && !reflect.DeepEqual(open, closed) {
			t.Fatalf("a refusal of its own changed under fail_closed: %s → %s", contribString(open), contribString(closed))
		}
		if foreign && (closed == nil || closed.Decision != DecisionBlock) {
			t.Fatalf("fail_closed guard with note %q did not refuse: %s", note, contribString(closed))
		}
		if foreign && !foreignApplies(d, e) {
			t.Fatalf("foreign note %q on %s, where %s does not fail closed", note, e.Name, d)
		}
	})
}
