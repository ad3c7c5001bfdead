package protocol

import (
	"strings"
	"unicode"
)

// pyStrip is Python's str.strip(): it also removes U+001C–U+001F, which
// Python counts as whitespace and Go's unicode.IsSpace does not.
func pyStrip(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || (r >= 0x1C && r <= 0x1F)
	})
}

// JSTrim is JavaScript's String.prototype.trim(): Unicode space separators,
// tab, vertical tab, form feed, U+FEFF (a byte-order mark, as PowerShell
// output can start with) and line terminators — but not U+0085.
func JSTrim(s string) string {
	return strings.TrimFunc(s, func(r rune) bool {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', ' ', 0xA0, 0xFEFF, 0x2028, 0x2029:
			return true
		}
		return unicode.Is(unicode.Zs, r)
	})
}
