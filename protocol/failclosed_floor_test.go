package protocol

import (
	"strings"
	"testing"
)

// FailClosedFloor: a codec's reading of a failed fail_closed guard that
// did not refuse becomes the refusal; everything else stays the codec's.
func TestFailClosedFloor(t *testing.T) {
	ev, _ := Lookup("pre_tool_call")
	allow := &Contribution{Decision: DecisionAllow}
	for _, tc := range []struct {
		name    string
		r       Reply
		refuses bool
		c       *Contribution
		note    string
		want    string // the block's message; "" for c unchanged
	}{
		{name: "validation", r: Reply{FailClosed: true, Command: "g"}, refuses: true, note: validationFailed + "no",
			want: "hook g failed closed: unreadable reply: hook output failed validation: no"},
		{name: "ambiguous", r: Reply{FailClosed: true, Command: "g"}, refuses: true, note: AmbiguousNote(`"a" appears twice`, "{}"),
			want: `hook g failed closed: unreadable reply: hook stdout is ambiguous: "a" appears twice: {}`},
		{name: "spawn", r: Reply{FailClosed: true, Command: "g", SpawnError: "gone"}, refuses: true, want: "hook g failed closed: gone"},
		{name: "timeout", r: Reply{FailClosed: true, Command: "g", TimedOut: true, Timeout: 5}, refuses: true,
			want: "hook g failed closed: timed out after 5s"},
		{name: "allow_kept", r: Reply{FailClosed: true, Command: "g"}, refuses: true, c: allow},
		{name: "exit_status_is_the_codecs", r: Reply{FailClosed: true, Command: "g", ExitCode: 1}, refuses: true},
		{name: "not_fail_closed", r: Reply{Command: "g"}, refuses: true, note: validationFailed + "no"},
		{name: "does_not_refuse", r: Reply{FailClosed: true, Command: "g"}, note: validationFailed + "no"},
		{name: "block_kept", r: Reply{FailClosed: true, Command: "g"}, refuses: true, c: block("own"), note: validationFailed + "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.r.Event = ev
			got, _ := FailClosedFloor(tc.r, tc.refuses, tc.c, tc.note)
			if tc.want == "" {
				if got != tc.c {
					t.Fatalf("got %+v, want the codec's %+v", got, tc.c)
				}
				return
			}
			if got == nil || got.Decision != DecisionBlock || got.Message != tc.want {
				t.Fatalf("got %+v, want block %q", got, tc.want)
			}
		})
	}
}

// CutReply: a JSON reply the output cap cut refuses where the entry
// refuses; anything the cut did not make unreadable stays as read.
func TestCutReply(t *testing.T) {
	ev, _ := Lookup("pre_tool_call")
	cut := []byte(`{"decision":"block","reason":"xxxx`)
	for _, tc := range []struct {
		name      string
		stdout    string
		truncated bool
		refuses   bool
		c         *Contribution
		block     bool
	}{
		{name: "cut_object", stdout: string(cut), truncated: true, refuses: true, block: true},
		{name: "cut_object_after_blanks", stdout: " \n" + string(cut), truncated: true, refuses: true, block: true},
		{name: "cut_after_the_object", stdout: `{"decision":"approve"}`, truncated: true, refuses: true, c: &Contribution{Decision: DecisionAllow}},
		{name: "text", stdout: "log line", truncated: true, refuses: true},
		{name: "not_cut", stdout: string(cut), refuses: true},
		{name: "event_refuses_nothing", stdout: string(cut), truncated: true},
		{name: "its_own_block_kept", stdout: string(cut), truncated: true, refuses: true, c: block("own")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := Reply{Event: ev, Command: "g", Stdout: []byte(tc.stdout), StdoutTruncated: tc.truncated}
			got, _ := CutReply(r, tc.refuses, tc.c, "")
			if !tc.block {
				if got != tc.c {
					t.Fatalf("got %+v, want %+v", got, tc.c)
				}
				return
			}
			want := "hook g: its reply passed the output cap (" + itoa(len(tc.stdout)) + " bytes) and was cut, so what it decided cannot be read"
			if got == nil || got.Decision != DecisionBlock || got.Message != want {
				t.Fatalf("got %+v, want block %q", got, want)
			}
		})
	}
}

// An ambiguous reply refuses where the gate is guarded, fail_closed or
// not, naming the repeated member; a block stays the hook's own, and
// elsewhere (a non-gating event, an entry that refuses nothing) it stays a
// note.
func TestAmbiguousReply(t *testing.T) {
	ev, _ := Lookup("pre_tool_call")
	r := Reply{Event: ev, Dialect: Claude, Command: "./g.sh", Stdout: []byte(`{"decision":"block","reason":"a","reason":"b"}`)}
	c, note := ParseReply(r)
	if got, _ := AmbiguousReply(r, true, c, note); got == nil || got.Decision != DecisionBlock || !strings.Contains(got.Message, `"reason" appears twice`) {
		t.Errorf("guarded gate: %+v (note %q), want a block naming the member", got, note)
	}
	if got, _ := AmbiguousReply(r, false, c, note); got != c {
		t.Errorf("unguarded: %+v, want the dialect's reading %+v", got, c)
	}
	own := &Contribution{Decision: DecisionBlock, Message: "mine"}
	if got, _ := AmbiguousReply(r, true, own, note); got != own {
		t.Errorf("a block of the hook's own was replaced: %+v", got)
	}
	if got, _ := AmbiguousReply(r, true, nil, "some other note"); got != nil {
		t.Errorf("a reply that is not ambiguous refused: %+v", got)
	}
}
