package agents

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A Copilot hook file's hooks (copilot_hooks:), run under any agent, are
// read as Copilot CLI 1.0.102 reads them: its flat words per event, Claude
// Code's hookSpecificOutput beside them, and a preToolUse hook that fails
// denies. Before, they were read in the Claude dialect, where
// {"permissionDecision": "deny"} was a foreign word and the call went
// through.

type copilotReplyCase struct {
	declared       string
	exit           int
	stdout, stderr string
	timedOut       bool
	spawn          string
	failClosed     bool
	// want: the decision; message: the block's or ask's message ("" for
	// any); hasMessage: a part the message holds.
	want            protocol.Decision
	message, msgHas string
	args            string // the rewrite's command, "" for none
	context, result string
	stop            bool
	foreign         bool
	noteHas         string
}

var copilotReplyCases = []copilotReplyCase{
	// preToolUse, both spellings.
	{declared: "preToolUse", stdout: `{"permissionDecision":"deny","permissionDecisionReason":"copilot says no"}`,
		want: protocol.DecisionBlock, message: "copilot says no"},
	{declared: "PreToolUse", stdout: `{"permissionDecision":"deny"}`, want: protocol.DecisionBlock, message: protocol.ClaudeDefaultBlockReason},
	{declared: "preToolUse", stdout: `{"permissionDecision":"ask","permissionDecisionReason":"sure?"}`, want: protocol.DecisionAsk, message: "sure?"},
	{declared: "preToolUse", stdout: `{"permissionDecision":"allow"}`, want: protocol.DecisionAllow},
	{declared: "preToolUse", stdout: `{"permissionDecision":"allow","modifiedArgs":{"command":"ls"}}`, want: protocol.DecisionAllow, args: "ls"},
	{declared: "preToolUse", stdout: `{"modifiedArgs":{"command":"ls"},"additionalContext":"see"}`, args: "ls", context: "see"},
	// Claude Code's words still read; the most restrictive wins.
	{declared: "PreToolUse", stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"hso"}}`,
		want: protocol.DecisionBlock, message: "hso"},
	{declared: "preToolUse", stdout: `{"decision":"block","reason":"top"}`, want: protocol.DecisionBlock, message: "top"},
	{declared: "preToolUse", stdout: `{"permissionDecision":"allow","decision":"block","reason":"top"}`, want: protocol.DecisionBlock, message: "top"},
	{declared: "PreToolUse", stdout: `{"permissionDecision":"allow","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask"}}`,
		want: protocol.DecisionAsk},
	{declared: "preToolUse", stdout: `{"permissionDecision":"deny","permissionDecisionReason":"flat","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`,
		want: protocol.DecisionBlock, message: "flat"},
	// Copilot's preToolUse is fail-closed: any exit but 0, or a crash,
	// denies; a timeout lets the call through.
	{declared: "preToolUse", exit: 1, stderr: "boom\nmore", want: protocol.DecisionBlock, msgHas: "exited with status 1: boom"},
	{declared: "preToolUse", exit: -9, want: protocol.DecisionBlock, msgHas: "killed by signal 9"},
	{declared: "preToolUse", exit: 2, stderr: "no rm", want: protocol.DecisionBlock, message: "no rm"},
	{declared: "preToolUse", exit: 3, stdout: `{"permissionDecision":"allow"}`, want: protocol.DecisionBlock, msgHas: "exited with status 3"},
	{declared: "preToolUse", spawn: "no such file", want: protocol.DecisionBlock, msgHas: "no such file"},
	{declared: "preToolUse", timedOut: true},
	{declared: "preToolUse", timedOut: true, failClosed: true, want: protocol.DecisionBlock},
	// A value Copilot does not read is no allow: the search finds it.
	{declared: "preToolUse", stdout: `{"permissionDecision":"block"}`, foreign: true, noteHas: `permissionDecision "block"`},
	{declared: "preToolUse", stdout: `{"permissionDecision":"block"}`, failClosed: true, want: protocol.DecisionBlock, foreign: true},
	// Other dialects' words stay foreign, named with Copilot's refusal.
	{declared: "preToolUse", stdout: `{"permission":"deny"}`, foreign: true,
		noteHas: `its reply's permission "deny" is Cursor's word, which the copilot dialect does not read on preToolUse: ` +
			`reply {"permissionDecision": "deny", "permissionDecisionReason": "…"} to refuse`},
	{declared: "preToolUse", stdout: `{"permission":"deny"}`, failClosed: true, want: protocol.DecisionBlock, foreign: true},
	{declared: "preToolUse", stdout: `{"PermissionDecision":"deny"}`, foreign: true, noteHas: "in another case"},
	// Copilot reads hookSpecificOutput as Claude Code does: a key of it in
	// another case is named as one, not as a word Copilot does not read.
	{declared: "PreToolUse", stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","PermissionDecision":"deny"}}`, foreign: true,
		noteHas: `its reply's key hookSpecificOutput.PermissionDecision ("deny") is permissionDecision in another case`},
	{declared: "preToolUse", stdout: `{"behavior":"deny"}`, foreign: true, noteHas: `its reply's behavior "deny" is Copilot CLI's word, which the copilot dialect does not read on preToolUse`},
	{declared: "preToolUse", stdout: `{"permissionDecision":"allow","cancel":true}`, want: protocol.DecisionAllow, foreign: true},

	// Copilot strips progress lines ({"type":"progress",…}) before it reads
	// the reply: a guard that reports progress still denies. Progress
	// lines alone are kept (a lone one refused in the Claude dialect).
	{declared: "preToolUse", stdout: "{\"type\":\"progress\",\"message\":\"scanning\"}\n{\"type\":\"progress\"}\r\n" +
		`{"permissionDecision":"deny","permissionDecisionReason":"no"}`, want: protocol.DecisionBlock, message: "no"},
	{declared: "preToolUse", stdout: "{\"type\":\"progress\"}\n"},
	{declared: "preToolUse", stdout: `{"type":"progress","decision":"block","reason":"r"}`, want: protocol.DecisionBlock, message: "r"},
	{declared: "preToolUse", stdout: "{\"type\":\"progress\",\"permissionDecision\":\"allow\"}\n{\"permissionDecision\":\"deny\"}",
		want: protocol.DecisionBlock},
	{declared: "agentStop", stdout: "{\"type\":\"progress\"}\n{\"decision\":\"block\",\"reason\":\"tests fail\"}", want: protocol.DecisionBlock, message: "tests fail"},

	// A reply after a byte order mark (PowerShell's) is read as the Claude
	// dialect reads it (JavaScript's trim): Copilot's words, and a foreign
	// word it held, are not lost.
	{declared: "preToolUse", stdout: "\ufeff" + `{"permissionDecision":"deny","permissionDecisionReason":"bom"}`,
		want: protocol.DecisionBlock, message: "bom"},
	{declared: "preToolUse", stdout: "\ufeff" + `{"permission":"deny"}`, foreign: true, noteHas: "Cursor's word"},
	{declared: "preToolUse", stdout: "\ufeff" + `{"permission":"deny"}`, failClosed: true, want: protocol.DecisionBlock, foreign: true},
	// U+0085 is no space to JavaScript: no JSON reply, as in Copilot.
	{declared: "preToolUse", stdout: "\u0085" + `{"permissionDecision":"allow"}`},

	// permissionRequest: behavior, message, interrupt; exit 2 denies.
	{declared: "permissionRequest", stdout: `{"behavior":"deny","message":"not here"}`, want: protocol.DecisionBlock, message: "not here"},
	{declared: "PermissionRequest", stdout: `{"behavior":"deny","message":"halt","interrupt":true}`, want: protocol.DecisionBlock, message: "halt", stop: true},
	{declared: "permissionRequest", stdout: `{"behavior":"allow"}`, want: protocol.DecisionAllow},
	{declared: "permissionRequest", exit: 2, stderr: "nope", want: protocol.DecisionBlock, message: "nope"},
	{declared: "permissionRequest", exit: 1},
	{declared: "permissionRequest", stdout: `{"permissionDecision":"deny"}`, foreign: true, noteHas: `reply {"behavior": "deny", "message": "…"} to refuse`},
	{declared: "PermissionRequest", stdout: `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"hso"}}}`,
		want: protocol.DecisionBlock, message: "hso"},

	// Stops: decision block keeps the agent going with the reason; allow
	// is no objection.
	{declared: "agentStop", stdout: `{"decision":"block","reason":"tests fail"}`, want: protocol.DecisionBlock, message: "tests fail"},
	{declared: "subagentStop", stdout: `{"decision":"allow"}`},
	{declared: "Stop", stdout: `{"decision":"allow"}`, failClosed: true},
	{declared: "agentStop", exit: 1},

	// After a tool: modifiedResult and context.
	{declared: "postToolUse", stdout: `{"modifiedResult":{"resultType":"success","textResultForLlm":"redacted"},"additionalContext":"note"}`,
		result: "redacted", context: "note"},
	{declared: "PostToolUse", stdout: `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"hso"}}`, context: "hso"},
	{declared: "sessionStart", stdout: `{"additionalContext":"branch main"}`, context: "branch main"},
	{declared: "subagentStart", stdout: `{"additionalContext":"be brief"}`, context: "be brief"},
}

func TestCopilotReply(t *testing.T) {
	copilot, _ := Lookup("copilot")
	codec := copilot.Source.Codec
	if codec == nil {
		t.Fatal("the copilot agent has no codec: its hook files are read in the Claude dialect")
	}
	for _, tc := range copilotReplyCases {
		name := tc.declared + " " + tc.stdout + tc.stderr
		ev, ok := copilot.SourceEvent(tc.declared)
		if !ok {
			t.Fatalf("%s: no event", name)
		}
		r := protocol.Reply{Dialect: codec.Dialect(), Event: ev, Command: "g", ExitCode: tc.exit, Stdout: []byte(tc.stdout),
			Stderr: []byte(tc.stderr), TimedOut: tc.timedOut, Timeout: 1, SpawnError: tc.spawn, FailClosed: tc.failClosed}
		rd := codec.ReadReply(tc.declared, r)
		var got protocol.Contribution
		if rd.Contribution != nil {
			got = *rd.Contribution
		}
		cmd, _ := got.Args["command"].(string)
		result := ""
		if got.Result != nil {
			result = *got.Result
		}
		if got.Decision != tc.want || tc.message != "" && got.Message != tc.message || !strings.Contains(got.Message, tc.msgHas) ||
			cmd != tc.args || got.Context != tc.context || result != tc.result || got.Stop != tc.stop {
			t.Errorf("%s: contribution %+v (note %q)", name, got, rd.Note)
		}
		if tc.args != "" && !got.ReplaceArgs {
			t.Errorf("%s: modifiedArgs read as a merge, want a replacement", name)
		}
		if (rd.Foreign != "") != tc.foreign {
			t.Errorf("%s: Foreign %q, want %v", name, rd.Foreign, tc.foreign)
		}
		if !strings.Contains(rd.Note, tc.noteHas) {
			t.Errorf("%s: note %q, want it to hold %q", name, rd.Note, tc.noteHas)
		}
		// A refusal's note does not call it non-blocking (test shows
		// the note beside the block).
		if got.Decision == protocol.DecisionBlock && strings.Contains(rd.Note, "non-blocking") {
			t.Errorf("%s: blocks, but its note says %q", name, rd.Note)
		}
	}
}

// FuzzCopilotReply: any run of a Copilot hook reads without panicking, the
// same each time; on preToolUse a run that did not exit 0 (and did not
// time out) refuses, and an allow is never read beside a deny in any
// vocabulary Copilot reads.
func FuzzCopilotReply(f *testing.F) {
	for _, tc := range copilotReplyCases {
		f.Add(tc.declared, tc.exit, tc.stdout, tc.stderr, tc.timedOut)
	}
	f.Add("preToolUse", 0, `{"permissionDecision":"allow","permissionDecision":"deny"}`, "", false)
	f.Add("preToolUse", 0, "{\"type\":\"progress\",\"permissionDecision\":\"allow\"}\n{\"permissionDecision\":\"deny\"}", "", false)
	f.Add("preToolUse", 0, `{"permissionDecision":"allow","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`, "", false)
	f.Fuzz(func(t *testing.T, declared string, exit int, stdout, stderr string, timedOut bool) {
		copilot, _ := Lookup("copilot")
		codec := copilot.Source.Codec
		ev, ok := copilot.SourceEvent(declared)
		if codec == nil || !ok {
			return
		}
		r := protocol.Reply{Dialect: codec.Dialect(), Event: ev, Command: "g", ExitCode: exit, Stdout: []byte(stdout),
			Stderr: []byte(stderr), TimedOut: timedOut, Timeout: 1}
		rd := codec.ReadReply(declared, r)
		if again := codec.ReadReply(declared, r); again.Note != rd.Note || again.Foreign != rd.Foreign {
			t.Fatalf("two readings differ: %q / %q", rd.Note, again.Note)
		}
		if copilotEvents()[declared].reply != copilotPreTool || timedOut {
			return
		}
		refused := rd.Contribution != nil && rd.Contribution.Decision == protocol.DecisionBlock
		if exit != 0 && !refused {
			t.Fatalf("preToolUse hook exited %d and contributed %+v", exit, rd.Contribution)
		}
		if strings.Contains(stdout, `"deny"`) && rd.Contribution != nil && rd.Contribution.Decision == protocol.DecisionAllow && rd.Foreign == "" {
			obj := jsonObjectOf(strings.TrimSpace(stdout))
			if pd, _ := obj["permissionDecision"].(string); pd == "deny" {
				t.Fatalf("a reply denying in Copilot's words read as allow: %s", stdout)
			}
		}
	})
}
