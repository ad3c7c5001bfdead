package termsafe

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain .hermes/format.sh", "plain .hermes/format.sh"},
		{"héllo 世界 😀", "héllo 世界 😀"},
		{"a\tb\nc\rd", `a\tb\nc\rd`},
		{"\r\x1b[2K.hermes/format.sh", `\r\x1b[2K.hermes/format.sh`},
		{"x\x00y\x07z\x7f", `x\x00y\x07z\x7f`},
		{"csi\u009b31m", `csi\u009b31m`},
		{"evil\u202egnp.sh", `evil\u202egnp.sh`},
		{"iso\u2066late\u2069", `iso\u2066late\u2069`},
		{"\u202a\u202b\u202c\u202d\u2067\u2068", `\u202a\u202b\u202c\u202d\u2067\u2068`},
		{"lrm\u200e rlm\u200f alm\u061c", `lrm\u200e rlm\u200f alm\u061c`},
		{"zw\u200bsp\u200dj\ufeffbom\u2060wj", `zw\u200bsp\u200dj\ufeffbom\u2060wj`},
		{"zwnj\u200c mvs\u180e", `zwnj\u200c mvs\u180e`},
		{"\x1f\u0080\u009f\u00a0", `\x1f\u0080\u009f` + "\u00a0"},
		{"ls\u2028ps\u2029", `ls\u2028ps\u2029`},
		{"bad\xffbyte\xc3", `bad\xffbyte\xc3`},
		{`back\slash`, `back\slash`},
		// Invisible to a person, read by a model: tag characters, variation
		// selectors, soft hyphen, Hangul filler, invisible operators.
		{"ok\U000e0072\U000e0075\U000e006e", `ok\U000e0072\U000e0075\U000e006e`},
		{"x\U000e0001\U000e007f\U000e0000", `x\U000e0001\U000e007f\U000e0000`},
		{"\u2764\ufe0f vs\U000e0100", `` + "\u2764" + `\ufe0f vs\U000e0100`},
		{"soft\u00adhy\u3164\u2062op", `soft\u00adhy\u3164\u2062op`},
		{"\u00e9\u00a0\u00ac", "\u00e9\u00a0\u00ac"},
	} {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestEscapeLines(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"no rm -rf\n", "no rm -rf\n"},
		{"one\ntwo\n\nthree", "one\ntwo\n\nthree"},
		{"sure?\x1b]0;pwned\x07\n", `sure?\x1b]0;pwned\x07` + "\n"},
		{"a\tb\r\nc\x1b[2J\r\n", `a\tb` + "\r\n" + `c\x1b[2J` + "\r\n"},
		{"safe\rgone\n\r", `safe\rgone` + "\n" + `\r`},
		{"ok\U000e0072\nx\u202e", `ok\U000e0072` + "\n" + `x\u202e`},
	} {
		if got := EscapeLines(tc.in); got != tc.want {
			t.Errorf("EscapeLines(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestEscapeCleanStringDoesNotAllocate(t *testing.T) {
	s := "~/.hermes/hooks/block-rm-rf.sh matcher='terminal' (timeout=10s, ✓ allowed)"
	if n := testing.AllocsPerRun(100, func() { _ = Escape(s) }); n != 0 {
		t.Fatalf("%v allocations", n)
	}
}

func TestSlogReplaceAttr(t *testing.T) {
	for _, mk := range []func(*bytes.Buffer) slog.Handler{
		func(b *bytes.Buffer) slog.Handler {
			return slog.NewTextHandler(b, &slog.HandlerOptions{ReplaceAttr: SlogReplaceAttr})
		},
		func(b *bytes.Buffer) slog.Handler {
			return slog.NewJSONHandler(b, &slog.HandlerOptions{ReplaceAttr: SlogReplaceAttr})
		},
	} {
		var buf bytes.Buffer
		slog.New(mk(&buf)).Info("hook added", "command", "\r\x1b[2Kok.sh\u202e", "n", 3)
		out := buf.String()
		if strings.ContainsAny(out, "\x1b\r\u202e") || !strings.Contains(out, `x1b[2Kok.sh`) {
			t.Errorf("log line %q", out)
		}
	}
}

func FuzzEscape(f *testing.F) {
	for _, s := range []string{"", "ok", "\x1b[31m", "\u202e", "\xff", "a\u2028b", "\r\x1b[2K.hermes/format.sh", "\xe2\x80", "é世😀\u180e"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := Escape(s)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 from %q", s)
		}
		if firstUnsafe(out) >= 0 {
			t.Fatalf("Escape(%q) = %q still holds an unsafe character", s, out)
		}
		// The same, checked against the contract's list rather than the
		// package's own classifier.
		for _, r := range out {
			if dangerous(r) {
				t.Fatalf("Escape(%q) = %q holds %U", s, out, r)
			}
		}
		if firstUnsafe(s) < 0 && out != s {
			t.Fatalf("Escape changed clean %q to %q", s, out)
		}
	})
}

// dangerous is the package contract's list of characters, written out
// independently of unsafeRune.
func dangerous(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	case r >= 0x200b && r <= 0x200d, r == 0x2060, r == 0xfeff, r == 0x180e:
		return true
	case r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

// FuzzEscapeLines: the output's lines (cut at "\n", a CRLF's "\r" taken
// off) are each safe, there are as many as the input's, and each is what
// Escape makes of the input's line.
func FuzzEscapeLines(f *testing.F) {
	for _, s := range []string{"", "a\nb", "x\r\n\x1b[2J\r\n", "\r\r\n\n", "ok\rover\n", "\u202e\n\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		in, out := strings.Split(s, "\n"), strings.Split(EscapeLines(s), "\n")
		if len(in) != len(out) {
			t.Fatalf("EscapeLines(%q): %d lines from %d", s, len(out), len(in))
		}
		for i, l := range out {
			want := in[i]
			if i < len(in)-1 && strings.HasSuffix(want, "\r") {
				if !strings.HasSuffix(l, "\r") {
					t.Fatalf("EscapeLines(%q): line %d lost its CRLF: %q", s, i, l)
				}
				l, want = l[:len(l)-1], want[:len(want)-1]
			}
			if l != Escape(want) || firstUnsafe(l) >= 0 {
				t.Fatalf("EscapeLines(%q): line %d is %q, want %q", s, i, l, Escape(want))
			}
		}
	})
}
