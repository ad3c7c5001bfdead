package journal

import (
	"errors"
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
}
