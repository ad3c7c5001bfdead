package pyjson

import (
	"strings"
	"unicode/utf8"
)

// DecodeReplace decodes hook output as Python's bytes.decode("utf-8",
// "replace") does: each maximal ill-formed subsequence becomes one U+FFFD
// ("\xff\xfe" gives two, a truncated three-byte sequence "\xe2\x82" one).
func DecodeReplace(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) + 8)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || size > 1 {
			sb.Write(b[i : i+size])
			i += size
			continue
		}
		sb.WriteRune(utf8.RuneError)
		i += MaximalSubpart(b[i:])
	}
	return sb.String()
}

// MaximalSubpart is the length of the ill-formed prefix of b to replace with
// one U+FFFD: a lead byte and the continuation bytes that could still have
// formed a valid sequence, or one byte (Unicode's "maximal subpart" rule,
// which Python and browsers follow).
func MaximalSubpart[T ~string | ~[]byte](b T) int {
	c := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c >= 0xE1 && c <= 0xEC, c == 0xEE, c == 0xEF:
		need = 2
	case c == 0xED:
		need, hi = 2, 0x9F
	case c == 0xF0:
		need, lo = 3, 0x90
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	case c == 0xF4:
		need, hi = 3, 0x8F
	default:
		return 1
	}
	n := 1
	for k := 0; k < need && n < len(b); k++ {
		x := b[n]
		if k > 0 {
			lo, hi = 0x80, 0xBF
		}
		if x < lo || x > hi {
			break
		}
		n++
	}
	return n
}
