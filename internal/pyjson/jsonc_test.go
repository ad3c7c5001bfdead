package pyjson

import "testing"

// TestStripComments: strip-json-comments' rules (Gemini CLI's and Qwen
// Code's reading of their settings), including its quirks: a quote after
// an even run of backslashes closes the string, JavaScript whitespace in
// a comment stays (JSON.parse then refuses U+00A0), an unclosed /* runs
// to the end.
func TestStripComments(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"{} // x", "{}     "},
		{"// x\r\n{}", "    \r\n{}"},
		{"/* a\nb */{}", "    \n    {}"},
		{`{"a": "//not", "b": "/*x*/"}`, `{"a": "//not", "b": "/*x*/"}`},
		{`{"a\"//": 1}//c`, `{"a\"//": 1}   `},
		{`{"a\\"://c` + "\n1}", `{"a\\":   ` + "\n1}"},
		{"{}/* open", "{}       "},
		{"{}// é", "{}    "},
		{"{}//\u00a0x", "{}  \u00a0 "},
		{"{}/**/1", "{}    1"},
		{"/", "/"},
	} {
		if got := string(StripComments([]byte(c.in))); got != c.want {
			t.Errorf("StripComments(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if _, ok := ParseNode(StripComments([]byte("{}//\u00a0"))); ok {
		t.Errorf("U+00A0 left by a comment read as JSON")
	}
}

// TestTruthy: JavaScript's truth of JSON.parse's values.
func TestTruthy(t *testing.T) {
	for _, in := range []string{`false`, `0`, `-0`, `0.0`, `1e-400`, `""`, `null`} {
		v, _ := ParseNode([]byte(in))
		if Truthy(v) {
			t.Errorf("Truthy(%s) = true", in)
		}
	}
	for _, in := range []string{`true`, `1`, `-1e400`, `"0"`, `"false"`, `[]`, `{}`, `[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]`} {
		v, _ := ParseNode([]byte(in))
		if !Truthy(v) {
			t.Errorf("Truthy(%s) = false", in)
		}
	}
	// Decode's numbers (json.Number) are read as JavaScript reads them.
	for in, want := range map[string]bool{`0`: false, `-0`: false, `0.0`: false, `1e-400`: false, `1`: true, `-1e400`: true, `0.5`: true} {
		v, _ := Decode([]byte(in))
		if Truthy(v) != want {
			t.Errorf("Truthy(Decode(%s)) = %v", in, !want)
		}
	}
}
