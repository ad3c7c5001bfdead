package rule

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// Attack (issue 35): an evaluation error can quote the payload — int() of
// a string, a dynamic pattern that does not parse — and a fail_closed
// rule's error is its block reason: it reaches the model, the agent's
// terminal and the journal. A hostile payload must not put megabytes or
// terminal escapes there through it.
func TestEvalErrorQuotesPayloadCutAndSafe(t *testing.T) {
	hostile := "\x1b]0;PWNED\x07\x1b[2J\u202e" + strings.Repeat("A", 200_000) + "TAIL"
	for _, tc := range []struct {
		src  string
		args map[string]any
	}{
		{`int(args.command) > 0`, map[string]any{"command": hostile}},
		{`float(args.command) > 0`, map[string]any{"command": hostile}},
		{`args.command matches args.pat`, map[string]any{"command": "x", "pat": "(" + hostile}},
		{`args.command matches args.pat`, map[string]any{"command": "x", "pat": "[\x1b[2J" + strings.Repeat("B", 3000)}},
	} {
		_, err := eval(t, tc.src, &Input{Event: "pre_tool_call", Tool: "terminal", Args: tc.args})
		if err == nil {
			t.Fatalf("%s: no error", tc.src)
		}
		msg := err.Error()
		if n := utf8.RuneCountInString(msg); n > maxErrorRunes+16 {
			t.Errorf("%s: error of %d code points, want at most %d: %.120q", tc.src, n, maxErrorRunes, msg)
		}
		if strings.ContainsAny(msg, "\x1b\x07\u202e") || strings.Contains(msg, "TAIL") {
			t.Errorf("%s: error carries the payload's escapes or tail: %.200q", tc.src, msg)
		}
	}
}
