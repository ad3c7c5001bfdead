package protocol

import "testing"

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
