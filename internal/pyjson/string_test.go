package pyjson

import (
	"testing"
	"unicode/utf8"
)

// stringOracle is appendString one byte at a time, as it was before runs
// of plain bytes were copied at once: the two must write the same bytes
// in every style.
func stringOracle(s string, st Style) []byte {
	buf := []byte{'"'}
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"', c == '\\':
				buf = append(buf, '\\', c)
			case c == '\n':
				buf = append(buf, '\\', 'n')
			case c == '\r':
				buf = append(buf, '\\', 'r')
			case c == '\t':
				buf = append(buf, '\\', 't')
			case c == '\b':
				buf = append(buf, '\\', 'b')
			case c == '\f':
				buf = append(buf, '\\', 'f')
			case c < 0x20 || (c == 0x7f && st == PythonASCII):
				buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				buf = append(buf, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case st == PythonASCII:
			buf = appendUnicodeEscape(buf, r)
			if r == utf8.RuneError && size == 1 {
				size = MaximalSubpart(s[i:])
			}
		case r == utf8.RuneError && size == 1:
			buf = append(buf, "\uFFFD"...)
			size = MaximalSubpart(s[i:])
		default:
			buf = append(buf, s[i:i+size]...)
		}
		i += size
	}
	return append(buf, '"')
}

var stringSeeds = []string{"", "plain", `rule: args.command matches "(^|[;&|]\\s*)rm"`, "a\"b\\c\nd\re\tf\bg\fh\x01i\x7fj",
	"é ✓ 😀", "\xff\xfe", "\xed\xa0\x80", "/tmp/r20/home-rules20/config.yaml", "\x7f"}

func TestAppendStringRuns(t *testing.T) {
	for _, s := range stringSeeds {
		for st := Compact; st <= JSIndent; st++ {
			if got, want := string(appendString(nil, s, st)), string(stringOracle(s, st)); got != want {
				t.Errorf("appendString(%q, %d) = %s, want %s", s, st, got, want)
			}
		}
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range stringSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for st := Compact; st <= JSIndent; st++ {
			if got, want := string(appendString(nil, s, st)), string(stringOracle(s, st)); got != want {
				t.Fatalf("appendString(%q, %d) = %s, want %s", s, st, got, want)
			}
		}
	})
}
