package agents

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// The hooks of an agent's own file (Gemini CLI's settings, a Cursor
// hooks.json, Windsurf's, Cline's folder) read in their agent's dialect: a
// reply that refuses in words that dialect does not read — another
// agent's, or its own key in another case — is unreadable, as it is for
// the Hermes and Claude dialects (protocol/reply_foreign.go). Before, each
// of these codecs read {"permissionDecision": "deny"} or {"Decision":
// "deny"} as no objection, and a fail_closed guard's call went through.

type codecForeignCase struct {
	codec      protocol.Codec
	agent      *Agent
	declared   string
	exit       int
	stdout     string
	stderr     string
	failClosed bool
	// want: the decision (none: no contribution, or one without a
	// decision); message: the block's message, "" for any.
	want    protocol.Decision
	message string
	// noteHas is in the note; foreign: the reply refused in words the
	// codec does not read (Read.Foreign).
	noteHas string
	foreign bool
}

const guardFailed = "hook g failed closed: "

var codecForeignCases = []codecForeignCase{
	// Gemini CLI: decision and continue are its words.
	{codec: geminiCodec{}, agent: gemini, declared: "BeforeTool", failClosed: true, stdout: `{"permissionDecision":"deny"}`,
		want: protocol.DecisionBlock, foreign: true, message: guardFailed + `its reply's permissionDecision "deny" is Copilot CLI's word, ` +
			`which the gemini dialect does not read on BeforeTool: reply {"decision": "deny", "reason": "…"} to refuse`},
	{codec: geminiCodec{}, agent: gemini, declared: "BeforeTool", failClosed: true, stdout: `{"Decision":"deny","reason":"no"}`,
		want: protocol.DecisionBlock, foreign: true, message: guardFailed + `its reply's key Decision ("deny") is decision in another case, which no dialect reads: keys are case-sensitive`},
	{codec: geminiCodec{}, agent: gemini, declared: "BeforeTool", failClosed: true, stdout: `{"permission":"deny"}`,
		want: protocol.DecisionBlock, foreign: true, message: guardFailed + `its reply's permission "deny" is Cursor's word, which the gemini dialect does not read on BeforeTool: ` +
			`reply {"decision": "deny", "reason": "…"} to refuse`},
	{codec: geminiCodec{}, agent: gemini, declared: "BeforeTool", failClosed: true,
		stdout: `{"hookSpecificOutput":{"hookEventName":"BeforeTool","permissionDecision":"deny"}}`,
		want:   protocol.DecisionBlock, foreign: true, message: guardFailed + `its reply's hookSpecificOutput.permissionDecision "deny" is Claude Code's word, ` +
			`which the gemini dialect does not read on BeforeTool: reply {"decision": "deny", "reason": "…"} to refuse`},
	{codec: geminiCodec{}, agent: gemini, declared: "AfterAgent", failClosed: true, stdout: `{"Continue":false}`,
		want: protocol.DecisionBlock, foreign: true, message: guardFailed + `its reply's key Continue (false) is continue in another case, which no dialect reads: keys are case-sensitive`},
	{codec: geminiCodec{}, agent: gemini, declared: "BeforeAgent", failClosed: true, stdout: `{"cancel":true}`, want: protocol.DecisionBlock, foreign: true},
	// Its own words decide; its allow and ask beside another's are read.
	{codec: geminiCodec{}, agent: gemini, declared: "BeforeTool", failClosed: true, stdout: `{"decision":"deny","reason":"r","permission":"deny"}`,
		want: protocol.DecisionBlock, message: "r"},
	{codec: geminiCodec{}, agent: gemini, declared: "BeforeTool", failClosed: true, stdout: `{"decision":"allow","permission":"allow","continue":true}`},
	{codec: geminiCodec{}, agent: gemini, declared: "BeforeTool", failClosed: true, stdout: `{"decision":"ask","permission":"ask"}`, want: protocol.DecisionAsk},
	{codec: geminiCodec{}, agent: gemini, declared: "BeforeTool", failClosed: true, stdout: `{}`},
	// Where its hooks cannot refuse, nothing is searched.
	{codec: geminiCodec{}, agent: gemini, declared: "SessionStart", failClosed: true, stdout: `{"permission":"deny"}`},
	{codec: geminiCodec{}, agent: gemini, declared: "PreCompress", failClosed: true, stdout: `{"permission":"deny"}`},
	// Not fail_closed: the result stays, the note says why.
	{codec: geminiCodec{}, agent: gemini, declared: "BeforeTool", stdout: `{"permissionDecision":"deny"}`, foreign: true,
		noteHas: `its reply's permissionDecision "deny" is Copilot CLI's word, which the gemini dialect does not read on BeforeTool`},

	// Cursor: permission where it asks one, continue before a prompt.
	{codec: cursorCodec{}, agent: cursor, declared: "beforeShellExecution", failClosed: true, stdout: `{"permissionDecision":"deny"}`,
		want: protocol.DecisionBlock, foreign: true, message: guardFailed + `its reply's permissionDecision "deny" is Copilot CLI's word, ` +
			`which the cursor dialect does not read on beforeShellExecution: reply {"permission": "deny", "agent_message": "…"} to refuse`},
	{codec: cursorCodec{}, agent: cursor, declared: "beforeShellExecution", failClosed: true, stdout: `{"Permission":"deny"}`,
		want: protocol.DecisionBlock, foreign: true, message: guardFailed + `its reply's key Permission ("deny") is permission in another case, which no dialect reads: keys are case-sensitive`},
	{codec: cursorCodec{}, agent: cursor, declared: "preToolUse", failClosed: true, stdout: `{"decision":"block"}`,
		want: protocol.DecisionBlock, foreign: true, message: guardFailed + `its reply's decision "block" is the Hermes and Claude dialects' word, ` +
			`which the cursor dialect does not read on preToolUse: reply {"permission": "deny", "agent_message": "…"} to refuse`},
	{codec: cursorCodec{}, agent: cursor, declared: "preToolUse", failClosed: true, stdout: `{"continue":false}`, want: protocol.DecisionBlock, foreign: true,
		message: guardFailed + `its reply's continue false is Claude Code's word, which the cursor dialect does not read on preToolUse: ` +
			`reply {"permission": "deny", "agent_message": "…"} to refuse`},
	{codec: cursorCodec{}, agent: cursor, declared: "beforeSubmitPrompt", failClosed: true, stdout: `{"permission":"deny"}`, want: protocol.DecisionBlock, foreign: true,
		message: guardFailed + `its reply's permission "deny" is Cursor's word, which the cursor dialect does not read on beforeSubmitPrompt: ` +
			`reply {"continue": false, "user_message": "…"} to refuse`},
	// An allow beside a refusal it does not read is not an allow.
	{codec: cursorCodec{}, agent: cursor, declared: "preToolUse", failClosed: true, stdout: `{"permission":"allow","permissionDecision":"deny"}`,
		want: protocol.DecisionBlock, foreign: true},
	{codec: cursorCodec{}, agent: cursor, declared: "preToolUse", stdout: `{"permission":"allow","permissionDecision":"deny"}`, want: protocol.DecisionAllow, foreign: true,
		noteHas: `its reply's permissionDecision "deny" is Copilot CLI's word`},
	{codec: cursorCodec{}, agent: cursor, declared: "preToolUse", failClosed: true, stdout: `{"permission":"allow","cancel":false}`, want: protocol.DecisionAllow},
	{codec: cursorCodec{}, agent: cursor, declared: "preToolUse", failClosed: true, stdout: `{"permission":"deny","agent_message":"m","cancel":true}`,
		want: protocol.DecisionBlock, message: "m"},
	{codec: cursorCodec{}, agent: cursor, declared: "beforeShellExecution", failClosed: true, exit: 2, stderr: "no", stdout: `{"Permission":"deny"}`,
		want: protocol.DecisionBlock, message: "no"},
	{codec: cursorCodec{}, agent: cursor, declared: "stop", failClosed: true, stdout: `{"permission":"deny"}`},
	{codec: cursorCodec{}, agent: cursor, declared: "postToolUse", failClosed: true, stdout: `{"permission":"deny"}`},

	// Cline: cancel, where it refuses; the reply after debug lines too.
	{codec: clineCodec{}, agent: cline, declared: "PreToolUse", failClosed: true, stdout: `{"permission":"deny"}`,
		want: protocol.DecisionBlock, foreign: true, message: guardFailed + `its reply's permission "deny" is Cursor's word, ` +
			`which the cline dialect does not read on PreToolUse: reply {"cancel": true, "errorMessage": "…"} to refuse`},
	{codec: clineCodec{}, agent: cline, declared: "PreToolUse", failClosed: true, stdout: `{"Cancel":true}`,
		want: protocol.DecisionBlock, foreign: true, message: guardFailed + `its reply's key Cancel (true) is cancel in another case, which no dialect reads: keys are case-sensitive`},
	{codec: clineCodec{}, agent: cline, declared: "UserPromptSubmit", failClosed: true, stdout: "debug\n{\"decision\":\"block\"}", want: protocol.DecisionBlock, foreign: true},
	{codec: clineCodec{}, agent: cline, declared: "PreToolUse", stdout: `{"continue":false}`, foreign: true, noteHas: `its reply's continue false is Claude Code's word`},
	{codec: clineCodec{}, agent: cline, declared: "PreToolUse", failClosed: true, stdout: `{"cancel":false,"permission":"allow"}`},
	{codec: clineCodec{}, agent: cline, declared: "PostToolUse", failClosed: true, stdout: `{"permission":"deny"}`},

	// Windsurf reads no stdout: any refusal there is one it does not read.
	{codec: windsurfCodec{}, agent: windsurf, declared: "pre_run_command", failClosed: true, stdout: `{"permission":"deny"}`,
		want: protocol.DecisionBlock, foreign: true, message: guardFailed + `its reply's permission "deny" is Cursor's word, ` +
			`which the windsurf dialect does not read on pre_run_command: exit 2 with the reason on stderr to refuse`},
	{codec: windsurfCodec{}, agent: windsurf, declared: "pre_user_prompt", failClosed: true, stdout: `{"decision":"block","reason":"r"}`, want: protocol.DecisionBlock, foreign: true},
	{codec: windsurfCodec{}, agent: windsurf, declared: "pre_write_code", stdout: `{"hookSpecificOutput":{"permissionDecision":"deny"}}`, foreign: true,
		noteHas: `its reply's hookSpecificOutput.permissionDecision "deny" is Claude Code's word, which the windsurf dialect does not read on pre_write_code`},
	{codec: windsurfCodec{}, agent: windsurf, declared: "pre_run_command", failClosed: true, exit: 2, stderr: "no", stdout: `{"permission":"deny"}`,
		want: protocol.DecisionBlock, message: "no"},
	{codec: windsurfCodec{}, agent: windsurf, declared: "pre_run_command", failClosed: true, stdout: `{"permission":"allow"}`},
	{codec: windsurfCodec{}, agent: windsurf, declared: "pre_run_command", failClosed: true, stdout: `not json {"permission":"deny"}`},
	{codec: windsurfCodec{}, agent: windsurf, declared: "post_run_command", failClosed: true, stdout: `{"permission":"deny"}`},
}

func TestCodecForeignRefusal(t *testing.T) {
	for _, tc := range codecForeignCases {
		name := tc.agent.Name + " " + tc.declared + " " + tc.stdout
		ev, ok := tc.agent.SourceEvent(tc.declared)
		if !ok {
			t.Fatalf("%s: no event", name)
		}
		r := protocol.Reply{Dialect: tc.codec.Dialect(), Event: ev, Command: "g", ExitCode: tc.exit,
			Stdout: []byte(tc.stdout), Stderr: []byte(tc.stderr), FailClosed: tc.failClosed}
		c, note := parseReply(tc.codec, tc.declared, r)
		var got protocol.Contribution
		if c != nil {
			got = *c
		}
		if got.Decision != tc.want || tc.message != "" && got.Message != tc.message {
			t.Errorf("%s: contribution %+v, want %s %q", name, got, tc.want, tc.message)
		}
		if tc.noteHas != "" && !strings.Contains(note, tc.noteHas) {
			t.Errorf("%s: note %q, want it to hold %q", name, note, tc.noteHas)
		}
		if rd := readOf(tc.codec, tc.declared, r); (rd.Foreign != "") != tc.foreign {
			t.Errorf("%s: Foreign %q, want %v", name, rd.Foreign, tc.foreign)
		}
	}
}

// foreignProbes are replies that refuse in words an agent's own dialect
// may not read: every other dialect's key, and keys in another case.
var foreignProbes = []string{
	`{"permissionDecision":"deny"}`, `{"permission":"deny"}`, `{"cancel":true}`, `{"decision":"block"}`,
	`{"continue":false}`, `{"action":"block"}`, `{"behavior":"deny"}`,
	`{"hookSpecificOutput":{"permissionDecision":"deny"}}`, `{"hookSpecificOutput":{"decision":{"behavior":"deny"}}}`,
	`{"Decision":"deny"}`, `{"Permission":"deny"}`, `{"Cancel":true}`, `{"Continue":false}`, `{"PermissionDecision":"deny"}`,
	`{"HookSpecificOutput":{"permissionDecision":"deny"}}`,
}

// TestEveryCodecReadsForeignRefusals walks the registry: on every event
// where a fail_closed guard of an agent's own file refuses at all (one
// that timed out blocks), each probe refuses — read as the codec's own
// refusal or found unreadable — and, for a hook that is not fail_closed,
// is its own refusal or a Read.Foreign (a failed hook, shown). An agent
// added with a codec gets this test by being in All().
func TestEveryCodecReadsForeignRefusals(t *testing.T) {
	refused := func(c *protocol.Contribution) bool {
		return c != nil && (c.Decision == protocol.DecisionBlock || c.Stop)
	}
	checked := map[string]int{}
	for _, a := range All() {
		codec := a.Source.Codec
		if codec == nil {
			continue
		}
		for _, declared := range a.AgentEvents() {
			ev, ok := a.SourceEvent(declared)
			if !ok || !ev.Can(protocol.CapBlock|protocol.CapContinue) {
				continue
			}
			base := protocol.Reply{Dialect: codec.Dialect(), Event: ev, Command: "g", Timeout: 1}
			timedOut := base
			timedOut.TimedOut, timedOut.FailClosed = true, true
			if c, _ := parseReply(codec, declared, timedOut); !refused(c) {
				continue
			}
			checked[a.Name]++
			for _, p := range foreignProbes {
				r := base
				r.Stdout, r.FailClosed = []byte(p), true
				if c, note := parseReply(codec, declared, r); !refused(c) {
					t.Errorf("%s %s: a fail_closed guard answering %s contributed %+v (note %q), want a refusal", a.Name, declared, p, c, note)
				}
				r.FailClosed = false
				if rd := readOf(codec, declared, r); !refused(rd.Contribution) && rd.Foreign == "" {
					t.Errorf("%s %s: a guard answering %s is neither refused nor reported (Read %+v)", a.Name, declared, p, rd)
				}
			}
		}
	}
	for _, name := range []string{"gemini", "cursor", "cline", "windsurf", "codex", "copilot"} {
		if checked[name] == 0 {
			t.Errorf("no event of %s was checked", name)
		}
	}
}

// readOf is the codec's Read of r.
func readOf(codec protocol.Codec, declared string, r protocol.Reply) protocol.Read {
	return codec.ReadReply(declared, r)
}

// FuzzCodecForeignRefusal: for any reply to any event of any agent's own
// file, a refusal its codec reports unread (Read.Foreign) is in the note
// and makes a fail_closed guard refuse, and the reading is the same each
// time (map order does not choose the word named).
func FuzzCodecForeignRefusal(f *testing.F) {
	for _, tc := range codecForeignCases {
		f.Add(tc.agent.Name, tc.declared, tc.exit, tc.stdout)
	}
	f.Add("cursor", "preToolUse", 0, `{"PERMISSION":"Ask","Cancel":true,"aCtIoN":"SKIP","hookspecificoutput":{"DECISION":{"Behavior":"DENY"}}}`)
	f.Fuzz(func(t *testing.T, agent, declared string, exit int, stdout string) {
		a, ok := Lookup(agent)
		if !ok || a.Source.Codec == nil {
			return
		}
		ev, ok := a.SourceEvent(declared)
		if !ok {
			return
		}
		codec := a.Source.Codec
		r := protocol.Reply{Dialect: codec.Dialect(), Event: ev, Command: "g", ExitCode: exit, Stdout: []byte(stdout)}
		rd := codec.ReadReply(declared, r)
		if again := codec.ReadReply(declared, r); again.Foreign != rd.Foreign || again.Note != rd.Note {
			t.Fatalf("two readings differ: %q / %q", rd.Foreign, again.Foreign)
		}
		if rd.Foreign == "" {
			return
		}
		if !strings.Contains(rd.Note, rd.Foreign) {
			t.Fatalf("foreign refusal %q is not in the note %q", rd.Foreign, rd.Note)
		}
		r.FailClosed = true
		if c, _ := parseReply(codec, declared, r); c == nil || c.Decision != protocol.DecisionBlock {
			t.Fatalf("%s %s: fail_closed guard with foreign refusal %q contributed %+v", agent, declared, rd.Foreign, c)
		}
	})
}
