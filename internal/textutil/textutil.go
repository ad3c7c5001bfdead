// Package textutil cuts text for messages people read, counting code
// points as Python does (Hermes' messages are cut so), never bytes: a cut
// never splits a character. Pure.
package textutil

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// CutRunes keeps the first n code points of s.
func CutRunes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// Truncate is Hermes' _truncate: s when it has at most n code points, else
// its first n-3 code points and "...".
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return CutRunes(s, n-3) + "..."
}

// CutBytes keeps at most n bytes of s, never splitting a character: for
// a bound in bytes (a record's field, a datagram), where CutRunes counts
// what people read.
func CutBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// CutBytesSaying is s cut as CutBytes cuts it, saying how long it was
// ("… (N bytes)") when it was cut: for a message or a record that repeats
// text someone else chose, so a reader knows it is not all there.
func CutBytesSaying(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return CutBytes(s, n) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// JoinNonEmpty joins the parts that are not empty with sep: a note, a
// reason or a context made of pieces any of which may be missing.
func JoinNonEmpty(sep string, parts ...string) string {
	var keep []string
	for _, p := range parts {
		if p != "" {
			keep = append(keep, p)
		}
	}
	return strings.Join(keep, sep)
}
