package pyjson

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// StripComments is data with its // and /* */ comments blanked as the npm
// package strip-json-comments (default options) blanks them before
// JSON.parse: Gemini CLI and Qwen Code read their settings so. Its rules,
// kept here to the letter since what they leave is what JSON.parse sees:
// a '"' not preceded by an odd run of backslashes opens or closes a
// string (outside a comment), and nothing in a string is a comment; a //
// comment ends before "\r\n" or "\n"; an unclosed /* runs to the end.
// Each character of a comment that is not JavaScript whitespace (\s)
// becomes a space; its whitespace, U+00A0 or U+2028 among it, stays, so
// JSON.parse still refuses those.
func StripComments(data []byte) []byte {
	out := make([]byte, 0, len(data))
	const (
		none = iota
		single
		multi
	)
	inString, comment, offset := false, none, 0
	blank := func(from, to int) {
		for i := from; i < to; {
			r, n := utf8.DecodeRune(data[i:to])
			if JSSpace(r) {
				out = append(out, data[i:i+n]...)
			} else {
				// One space a UTF-16 unit, as the regex replaces them; the
				// count is no matter to JSON.parse.
				out = append(out, ' ')
			}
			i += n
		}
	}
	for i := 0; i < len(data); i++ {
		c := data[i]
		next := byte(0)
		if i+1 < len(data) {
			next = data[i+1]
		}
		if comment == none && c == '"' && !escaped(data, i) {
			inString = !inString
		}
		if inString {
			continue
		}
		switch {
		case comment == none && c == '/' && next == '/':
			out = append(out, data[offset:i]...)
			offset, comment = i, single
			i++
		case comment == single && c == '\r' && next == '\n':
			i++
			comment = none
			blank(offset, i)
			offset = i
		case comment == single && c == '\n':
			comment = none
			blank(offset, i)
			offset = i
		case comment == none && c == '/' && next == '*':
			out = append(out, data[offset:i]...)
			offset, comment = i, multi
			i++
		case comment == multi && c == '*' && next == '/':
			i++
			comment = none
			blank(offset, i+1)
			offset = i + 1
		}
	}
	if comment != none {
		blank(offset, len(data))
		return out
	}
	return append(out, data[offset:]...)
}

// escaped: the '"' at i follows an odd number of backslashes.
func escaped(data []byte, i int) bool {
	n := 0
	for j := i - 1; j >= 0 && data[j] == '\\'; j-- {
		n++
	}
	return n%2 == 1
}

// JSSpace is JavaScript's \s (what its trim removes): its WhiteSpace and
// LineTerminator.
func JSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return 0x2000 <= r && r <= 0x200a
}

// Truthy is JavaScript's truth of v, a value ParseNode returns: false,
// 0, -0, NaN, "" and null are false; every other number and string,
// every array and object, true. A json.Number (Decode's numbers) is the
// number JavaScript reads for it: 1e-400 is 0, so false.
func Truthy(v any) bool {
	switch t := v.(type) {
	case nil:
		return false
	case bool:
		return t
	case json.Number:
		f, _ := strconv.ParseFloat(string(t), 64) // out of range: ±0 or ±Inf, as JavaScript
		return f != 0
	case float64:
		return t != 0 && !math.IsNaN(t)
	case string:
		return t != ""
	}
	return true
}
