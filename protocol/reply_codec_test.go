package protocol

import (
	"reflect"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// CodecRead: an agent's own dialect (a codec) declares the words it reads
// on an event, and a reply's refusal in any other of the table's words is
// unreadable there, as for the Hermes and Claude dialects.
func TestCodecRead(t *testing.T) {
	words := ReplyWords{Keys: []string{"permission"}, Refusal: `reply {"permission": "deny"}`}
	const prefix = "hook g failed closed: "
	for _, tc := range []struct {
		name       string
		event      string
		words      ReplyWords
		stdout     string
		c          *Contribution // the codec's own reading
		failClosed bool
		want       *Contribution
		foreign    string
	}{
		{name: "another_dialects_word", event: "pre_tool_call", words: words, stdout: `{"action":"block"}`, failClosed: true,
			foreign: `its reply's action "block" is the Hermes dialect's word, which the x dialect does not read on before: reply {"permission": "deny"} to refuse`},
		{name: "decision_is_two_dialects", event: "pre_tool_call", words: words, stdout: `{"decision":"deny"}`, failClosed: true,
			foreign: `its reply's decision "deny" is the Hermes and Claude dialects' word, which the x dialect does not read on before: reply {"permission": "deny"} to refuse`},
		{name: "its_own_in_another_case", event: "pre_tool_call", words: words, stdout: `{"Permission":"deny"}`, failClosed: true,
			foreign: `its reply's key Permission ("deny") is permission in another case, which no dialect reads: keys are case-sensitive`},
		{name: "claude_hso_whatever_its_event", event: "pre_tool_call", words: words, failClosed: true,
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`,
			foreign: `its reply's hookSpecificOutput.permissionDecision "deny" is Claude Code's word, which the x dialect does not read on before: reply {"permission": "deny"} to refuse`},
		{name: "not_fail_closed_keeps_its_result", event: "pre_tool_call", words: words, stdout: `{"permission":"allow","cancel":true}`,
			c: &Contribution{Decision: DecisionAllow}, want: &Contribution{Decision: DecisionAllow},
			foreign: `its reply's cancel true is Cline's word, which the x dialect does not read on before: reply {"permission": "deny"} to refuse`},
		{name: "an_ask_beside_its_ask", event: "pre_tool_call", words: words, stdout: `{"permission":"ask","permissionDecision":"ask"}`, failClosed: true,
			c: &Contribution{Decision: DecisionAsk}, want: &Contribution{Decision: DecisionAsk}},
		// What the codec reads it decided.
		{name: "its_own_word", event: "pre_tool_call", words: words, stdout: `{"permission":"deny"}`, failClosed: true},
		{name: "its_own_refusal", event: "pre_tool_call", words: words, stdout: `{"permission":"deny","cancel":true}`, failClosed: true,
			c: &Contribution{Decision: DecisionBlock, Message: "m"}, want: &Contribution{Decision: DecisionBlock, Message: "m"}},
		{name: "its_own_stop", event: "pre_tool_call", words: words, stdout: `{"cancel":true}`, failClosed: true,
			c: &Contribution{Stop: true}, want: &Contribution{Stop: true}},
		{name: "allows", event: "pre_tool_call", words: words, stdout: `{"permissionDecision":"allow","cancel":false,"continue":true}`, failClosed: true},
		// Where the agent's hooks cannot refuse, nothing is searched.
		{name: "cannot_refuse_here", event: "pre_tool_call", words: ReplyWords{Keys: words.Keys}, stdout: `{"action":"block"}`, failClosed: true},
		{name: "an_observer", event: "on_session_end", words: words, stdout: `{"action":"block"}`, failClosed: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := pyjson.Decode([]byte(tc.stdout))
			if err != nil {
				t.Fatal(err)
			}
			r := Reply{Event: ev(tc.event), Command: "g", FailClosed: tc.failClosed}
			rd := CodecRead("x", "before", tc.words, r, v.(map[string]any), tc.c, "its own note")
			want := tc.want
			if tc.foreign != "" && tc.failClosed {
				want = block(prefix + tc.foreign)
			}
			if !reflect.DeepEqual(rd.Contribution, want) || rd.Foreign != tc.foreign {
				t.Errorf("got %s, Foreign %q\nwant %s, Foreign %q", contribString(rd.Contribution), rd.Foreign, contribString(want), tc.foreign)
			}
			wantNote := "its own note"
			if tc.foreign != "" {
				wantNote += "; " + tc.foreign
			}
			if rd.Note != wantNote {
				t.Errorf("note %q, want %q", rd.Note, wantNote)
			}
		})
	}
}
