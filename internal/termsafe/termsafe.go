// Package termsafe makes text safe to print on a terminal.
//
// Contract: Escape returns its input unchanged (without allocating) when
// it holds nothing a terminal would act on or that would hide text, and
// otherwise renders every such character visibly and unambiguously: C0
// controls as \t, \n, \r or \xNN; DEL and C1 controls; bidirectional
// controls; zero-width and invisible format characters, tag characters and
// variation selectors (above U+FFFF as \UXXXXXXXX); line and paragraph
// separators; and invalid UTF-8 bytes. Printable text — non-ASCII
// letters, CJK, emoji — is kept. Every command, path, matcher, reason and
// hook output that hermes-hooks prints for a person goes through it, so
// that no config file or hook can make `list` or `approve` show one thing
// while another runs (a "\r\x1b[2K" that rewrites the line, a U+202E that
// reverses it).
package termsafe

import (
	"log/slog"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Escape renders s for a terminal (see the package comment).
func Escape(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	b := make([]byte, 0, len(s)+16)
	b = append(b, s[:i]...)
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b = append(b, `\x`...)
			b = appendHex(b, uint32(s[i]), 2)
		case r == '\t':
			b = append(b, `\t`...)
		case r == '\n':
			b = append(b, `\n`...)
		case r == '\r':
			b = append(b, `\r`...)
		case r < 0x20 || r == 0x7f:
			b = append(b, `\x`...)
			b = appendHex(b, uint32(r), 2)
		case unsafeRune(r) && r > 0xffff:
			b = append(b, `\U`...)
			b = appendHex(b, uint32(r), 8)
		case unsafeRune(r):
			b = append(b, `\u`...)
			b = appendHex(b, uint32(r), 4)
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

// EscapeLines is Escape for text of several lines, the line ends between
// them kept ("\n", and "\r\n" as Windows text ends a line): a reason a
// hook wrote for the agent's stderr (which the agent shows its user, or
// hands its model) still reads as the lines it wrote, and nothing in a
// line acts on a terminal — a "\r" inside one, which would return to the
// line's start and write over it, among them.
func EscapeLines(s string) string {
	if firstUnsafe(s) < 0 {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if i < len(lines)-1 && strings.HasSuffix(l, "\r") {
			lines[i] = Escape(l[:len(l)-1]) + "\r"
			continue
		}
		lines[i] = Escape(l)
	}
	return strings.Join(lines, "\n")
}

// firstUnsafe is the index of the first byte Escape must change, or -1.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || unsafeRune(r) {
			return i
		}
		i += size
	}
	return -1
}

// unsafeRune reports non-ASCII characters a terminal acts on or that hide
// or reorder text.
func unsafeRune(r rune) bool {
	switch {
	case r >= 0x80 && r <= 0x9f: // C1 controls (CSI is U+009B)
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f: // bidi marks
		return true
	case r >= 0x202a && r <= 0x202e: // bidi embeddings and overrides
		return true
	case r >= 0x2066 && r <= 0x2069: // bidi isolates
		return true
	case r >= 0x200b && r <= 0x200d, r == 0x2060, r == 0xfeff, r == 0x180e: // zero-width
		return true
	case r == 0x2028, r == 0x2029: // line and paragraph separators
		return true
	case r < 0xad:
		return false
	}
	// Every other invisible character: format characters (the tag
	// characters U+E0001–U+E007F among them), the other default-ignorable
	// ones (Hangul fillers, U+E0000 and the rest of the tags' plane) and
	// variation selectors. A terminal prints them as nothing, yet a model
	// reads them: words spelt in tags or selectors ("ASCII smuggling") hide
	// in a message that approve would show as a harmless one.
	return unicode.In(r, unicode.Cf, unicode.Other_Default_Ignorable_Code_Point, unicode.Variation_Selector)
}

func appendHex(b []byte, v uint32, width int) []byte {
	h := strconv.FormatUint(uint64(v), 16)
	for n := len(h); n < width; n++ {
		b = append(b, '0')
	}
	return append(b, h...)
}

// SlogReplaceAttr escapes string attribute values, for
// slog.HandlerOptions.ReplaceAttr: serve's logs quote commands, paths and
// hook output, and a person reads them on a terminal.
func SlogReplaceAttr(_ []string, a slog.Attr) slog.Attr {
	if a.Value.Kind() == slog.KindString {
		if s := a.Value.String(); firstUnsafe(s) >= 0 {
			a.Value = slog.StringValue(Escape(s))
		}
	}
	return a
}
