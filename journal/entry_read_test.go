package journal

import (
	"errors"
	"strings"
	"testing"
)

// Line.Entry: a record, a record of the chain that is no Entry (said in
// JSON's words, with the field), or no record at all (ErrNotRecord).
func TestLineEntry(t *testing.T) {
	for _, c := range []struct {
		line     string
		complete bool
		want     string // "" a record; "-" ErrNotRecord; else the error
	}{
		{`{"seq":1,"prev":"x","event":"pre_tool_call"}`, true, ""},
		{`{}`, true, ""}, // no seq, but an Entry: shown, as before
		{`{"seq":1,"decision":{"a":1}}`, true, `its "decision" is an object, where a record has a string`},
		{`{"seq":1,"hooks":"none"}`, true, `its "hooks" is a string, where a record has an array`},
		{`{"seq":1,"elapsed_ms":"3"}`, true, `its "elapsed_ms" is a string, where a record has a number`},
		{`{"seq":1,"stop":1}`, true, `its "stop" is a number, where a record has true or false`},
		{`{"seq":1,"time":"` + strings.Repeat("x", 100000) + `"}`, true, `its "time" is no RFC 3339 time`},
		{`{"seq":1,"seq_x":1,"hooks":[{"exit_code":1.5}]}`, true, `its "hooks.exit_code" is the number 1.5, where a record has a whole number`},
		{`{"decision":{"a":1}}`, true, "-"}, // no seq: not a link of the chain
		{`{"seq":"1","decision":{}}`, true, "-"},
		{`not json`, true, "-"},
		{`{"seq":1,"decision":{}}`, false, "-"}, // torn
	} {
		e, err := Line{Bytes: []byte(c.line), Complete: c.complete}.Entry()
		switch {
		case c.want == "" && (err != nil || e == nil):
			t.Errorf("%s: %v", c.line, err)
		case c.want == "-" && !errors.Is(err, ErrNotRecord):
			t.Errorf("%s: %v, want ErrNotRecord", c.line, err)
		case c.want != "" && c.want != "-" && (err == nil || err.Error() != c.want):
			t.Errorf("%s: %v, want %q", c.line, err, c.want)
		}
	}
	// The Entry as far as it decoded, for a reader's filters.
	e, err := Line{Bytes: []byte(`{"seq":3,"event":"pre_tool_call","decision":{}}`), Complete: true}.Entry()
	if err == nil || e == nil || e.Event != "pre_tool_call" || e.Seq != 3 {
		t.Errorf("partial entry %+v, %v", e, err)
	}
}
