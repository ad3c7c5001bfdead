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
		{"lrm\u200e rlm\u200f alm\u061c", `lrm\u200e rlm\u200f alm\u061c`},
		{"zw\u200bsp\u200dj\ufeffbom\u2060wj", `zw\u200bsp\u200dj\ufeffbom\u2060wj`},
		{"ls\u2028ps\u2029", `ls\u2028ps\u2029`},
		{"bad\xffbyte\xc3", `bad\xffbyte\xc3`},
		{`back\slash`, `back\slash`},
	} {
		if got := Escape(tc.in); got != tc.want {
			t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
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
	for _, s := range []string{"", "ok", "\x1b[31m", "\u202e", "\xff", "a\u2028b"} {
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
	})
}
