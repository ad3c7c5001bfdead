package pyjson

import (
	"bytes"
	"testing"
)

// TestSkipBOM: one leading UTF-8 byte order mark is skipped, as Claude
// Code and Codex skip it in their files; a second one, or one anywhere
// else, is left for the parser to refuse (JSON.parse after Node strips
// one: a second is an error).
func TestSkipBOM(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"{}", "{}"},
		{"\xef\xbb\xbf{}", "{}"},
		{"\xef\xbb\xbf", ""},
		{"\xef\xbb\xbf\xef\xbb\xbf{}", "\xef\xbb\xbf{}"},
		{" \xef\xbb\xbf{}", " \xef\xbb\xbf{}"},
		{"{}\xef\xbb\xbf", "{}\xef\xbb\xbf"},
		{"\xef\xbb{}", "\xef\xbb{}"},       // a cut mark is no mark
		{"\xfe\xff\x00{", "\xfe\xff\x00{"}, // UTF-16's is not ours to read
		{"\xef\xbb\xbfgarbage", "garbage"}, // the parser refuses the rest
	} {
		if got := SkipBOM([]byte(c.in)); !bytes.Equal(got, []byte(c.want)) {
			t.Errorf("SkipBOM(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestSkipBOMThenDecode: what a file's reader gets once it skipped the
// mark: the value, or Go's own error for what follows it.
func TestSkipBOMThenDecode(t *testing.T) {
	for _, c := range []struct {
		in string
		ok bool
	}{
		{"\xef\xbb\xbf{\"a\": 1}", true},
		{"\xef\xbb\xbf", false},
		{"\xef\xbb\xbf\xef\xbb\xbf{}", false},
		{"\xef\xbb\xbfnot json", false},
	} {
		_, err := Decode(SkipBOM([]byte(c.in)))
		if (err == nil) != c.ok {
			t.Errorf("Decode(SkipBOM(%q)): err %v, want ok=%v", c.in, err, c.ok)
		}
	}
}
