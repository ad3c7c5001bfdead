// Package pyjson writes and reads JSON the way the two hosts hermes-hooks
// speaks for do, byte for byte: Python's json module (Hermes: hook stdin,
// the allowlist file, the "parsed" lines of `hermes hooks test`) and
// JavaScript's JSON.stringify (Claude Code's hook stdin). It is the one
// place that knows Python's float repr, its escaping with and without
// ensure_ascii, its indent=2/sort_keys file layout, and its "replace"
// decoding of invalid UTF-8; package protocol, consent and report use it.
package pyjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Ordered is a JSON object whose members keep their order (protocol.Object):
// payloads and the Hermes wire shape are built so because their key order
// is part of the contract.
type Ordered interface {
	Len() int
	Member(i int) (key string, value any)
}

// Style selects separators and escaping.
type Style uint8

const (
	// Compact is JavaScript's JSON.stringify: no spaces, non-ASCII raw.
	// Claude Code writes hook stdin this way.
	Compact Style = iota
	// Python is Python's json.dumps defaults with ensure_ascii=False:
	// ", " and ": " separators, non-ASCII raw. Hermes writes hook stdin so.
	Python
	// PythonASCII is json.dumps with its defaults (ensure_ascii=True), the
	// form of Hermes' "parsed (Hermes wire shape)" lines.
	PythonASCII
	// PythonFile is json.dumps(v, indent=2, sort_keys=True,
	// ensure_ascii=False) of what json.load read: the layout of Hermes'
	// allowlist file. Numbers are written as Python re-serialises them
	// (integers exact, "-0" as "0", fractions and exponents through
	// float repr), so a file Hermes and hermes-hooks both write stays
	// diff-identical.
	PythonFile
	// JSIndent is JavaScript's JSON.stringify(v, null, 2), the layout
	// Claude Code and Cursor write their settings in: what install edits.
	// Numbers keep their text; object members keep their order.
	JSIndent
)

const maxJSONDepth = 512

// Append appends the JSON encoding of v in the given style. It never
// fails: values JSON cannot represent (channels, functions, cycles deeper
// than 512 levels, NaN) become their string form or null, as Hermes'
// json.dumps(default=str) would stringify them.
func Append(buf []byte, v any, style Style) []byte {
	return appendValue(buf, v, style, 0)
}

// Encode is Append into a fresh slice.
func Encode(v any, style Style) []byte { return Append(nil, v, style) }

func appendValue(buf []byte, v any, st Style, depth int) []byte {
	if depth > maxJSONDepth {
		return appendString(buf, "<too deeply nested>", st)
	}
	// One helper per kind, so that each reads on its own. The cases keep
	// the order of the single switch they were: a type switch takes the
	// first case that matches, so the scalars go first, then Ordered and
	// error before the fallback.
	if out, ok := appendScalar(buf, v, st); ok {
		return out
	}
	switch x := v.(type) {
	case Ordered:
		return appendOrdered(buf, x, st, depth)
	case map[string]any:
		return appendMap(buf, x, st, depth)
	case map[string]string:
		m := make(map[string]any, len(x))
		for k, s := range x {
			m[k] = s
		}
		return appendMap(buf, m, st, depth)
	case []any:
		return appendArray(buf, x, st, depth)
	case []string:
		return appendStrings(buf, x, st, depth)
	case json.RawMessage:
		if d, err := Decode(x); err == nil {
			return appendValue(buf, d, st, depth)
		}
		return appendString(buf, string(x), st)
	case error:
		return appendString(buf, x.Error(), st)
	}
	return appendOther(buf, v, st, depth)
}

// appendScalar appends v when it is a JSON scalar of a Go type the encoder
// knows (nil, bool, string, json.Number, a float or an integer); ok is
// false for anything else.
func appendScalar(buf []byte, v any, st Style) (out []byte, ok bool) {
	switch x := v.(type) {
	case nil:
		return append(buf, "null"...), true
	case bool:
		if x {
			return append(buf, "true"...), true
		}
		return append(buf, "false"...), true
	case string:
		return appendString(buf, x, st), true
	case json.Number:
		if !isJSONNumber(string(x)) {
			return appendString(buf, string(x), st), true
		}
		if st == PythonFile {
			return append(buf, pyNumber(string(x))...), true
		}
		return append(buf, x...), true
	case float64:
		return appendFloat(buf, x, st), true
	case float32:
		return appendFloat(buf, float64(x), st), true
	}
	return appendInteger(buf, v)
}

// appendInteger appends v when it is one of Go's integer types, exactly
// (no float round trip); ok is false otherwise.
func appendInteger(buf []byte, v any) (out []byte, ok bool) {
	switch x := v.(type) {
	case int:
		return strconv.AppendInt(buf, int64(x), 10), true
	case int8:
		return strconv.AppendInt(buf, int64(x), 10), true
	case int16:
		return strconv.AppendInt(buf, int64(x), 10), true
	case int32:
		return strconv.AppendInt(buf, int64(x), 10), true
	case int64:
		return strconv.AppendInt(buf, x, 10), true
	case uint:
		return strconv.AppendUint(buf, uint64(x), 10), true
	case uint8:
		return strconv.AppendUint(buf, uint64(x), 10), true
	case uint16:
		return strconv.AppendUint(buf, uint64(x), 10), true
	case uint32:
		return strconv.AppendUint(buf, uint64(x), 10), true
	case uint64:
		return strconv.AppendUint(buf, x, 10), true
	}
	return buf, false
}

// appendOrdered appends an object whose members keep their order.
func appendOrdered(buf []byte, x Ordered, st Style, depth int) []byte {
	if x.Len() == 0 {
		return append(buf, "{}"...)
	}
	buf = append(buf, '{')
	for i := range x.Len() {
		if i > 0 {
			buf = appendComma(buf, st)
		}
		k, v := x.Member(i)
		buf = appendIndent(buf, st, depth+1)
		buf = appendString(buf, k, st)
		buf = appendColon(buf, st)
		buf = appendValue(buf, v, st, depth+1)
	}
	buf = appendIndent(buf, st, depth)
	return append(buf, '}')
}

// appendMap appends a Go map as an object with sorted keys: a Go map has
// no order of its own, and Python's sort_keys is the one both hosts'
// readers accept.
func appendMap(buf []byte, x map[string]any, st Style, depth int) []byte {
	if len(x) == 0 {
		return append(buf, "{}"...)
	}
	keys := make([]string, 0, len(x))
	for k := range x {
		keys = append(keys, k)
	}
	// Byte order of UTF-8 equals code point order, which is how
	// Python sorts str keys.
	sort.Strings(keys)
	buf = append(buf, '{')
	for i, k := range keys {
		if i > 0 {
			buf = appendComma(buf, st)
		}
		buf = appendIndent(buf, st, depth+1)
		buf = appendString(buf, k, st)
		buf = appendColon(buf, st)
		buf = appendValue(buf, x[k], st, depth+1)
	}
	buf = appendIndent(buf, st, depth)
	return append(buf, '}')
}

// appendArray appends a JSON array.
func appendArray(buf []byte, x []any, st Style, depth int) []byte {
	return appendList(buf, x, st, depth, func(buf []byte, e any) []byte { return appendValue(buf, e, st, depth+1) })
}

// appendStrings appends a []string without boxing each element into an
// any.
func appendStrings(buf []byte, x []string, st Style, depth int) []byte {
	return appendList(buf, x, st, depth, func(buf []byte, e string) []byte { return appendString(buf, e, st) })
}

// appendList appends the elements of x as a JSON array in style st, each
// written by elem.
func appendList[T any](buf []byte, x []T, st Style, depth int, elem func([]byte, T) []byte) []byte {
	if len(x) == 0 {
		return append(buf, "[]"...)
	}
	buf = append(buf, '[')
	for i, e := range x {
		if i > 0 {
			buf = appendComma(buf, st)
		}
		buf = appendIndent(buf, st, depth+1)
		buf = elem(buf, e)
	}
	buf = appendIndent(buf, st, depth)
	return append(buf, ']')
}

// appendOther appends a value of a type the encoder does not know:
// whatever encoding/json makes of it, re-encoded in our style; if
// encoding/json refuses it, its string form (Python's default=str) —
// except for containers, whose string form would walk a cycle forever, so
// they are named by their type instead.
func appendOther(buf []byte, v any, st Style, depth int) []byte {
	b, err := json.Marshal(v)
	if err == nil {
		if d, err := Decode(b); err == nil {
			return appendValue(buf, d, st, depth)
		}
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Map, reflect.Slice, reflect.Array, reflect.Pointer, reflect.Struct, reflect.Interface:
		return appendString(buf, fmt.Sprintf("<unserialisable %T>", v), st)
	}
	return appendString(buf, fmt.Sprint(v), st)
}

// appendIndent starts a new line at depth (PythonFile only).
func appendIndent(buf []byte, st Style, depth int) []byte {
	if st != PythonFile && st != JSIndent {
		return buf
	}
	buf = append(buf, '\n')
	for range depth {
		buf = append(buf, "  "...)
	}
	return buf
}

func appendComma(buf []byte, st Style) []byte {
	if st == Compact || st == PythonFile || st == JSIndent {
		return append(buf, ',')
	}
	return append(buf, ',', ' ')
}

func appendColon(buf []byte, st Style) []byte {
	if st == Compact {
		return append(buf, ':')
	}
	return append(buf, ':', ' ')
}

// appendFloat writes a float as the dialect's own host would: Python's repr
// (1.0, 1e+16, 1e-05) or JavaScript's Number toString (1, 1e+21, 1e-7). NaN
// and infinities, which JSON cannot hold, become null.
func appendFloat(buf []byte, f float64, st Style) []byte {
	js := st == Compact || st == JSIndent
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(buf, "null"...)
	}
	if f == 0 {
		if js {
			return append(buf, '0')
		}
		if math.Signbit(f) {
			return append(buf, "-0.0"...)
		}
		return append(buf, "0.0"...)
	}
	// Shortest round-trip digits and the decimal exponent.
	digits := strconv.FormatFloat(math.Abs(f), 'e', -1, 64)
	mant, expStr, _ := strings.Cut(digits, "e")
	exp, _ := strconv.Atoi(expStr)
	if f < 0 {
		buf = append(buf, '-')
	}
	sci := exp < -4 || exp >= 16 // Python repr
	if js {
		sci = exp < -6 || exp >= 21 // JavaScript
	}
	if !sci {
		s := strconv.FormatFloat(math.Abs(f), 'f', -1, 64)
		buf = append(buf, s...)
		if !js && !strings.Contains(s, ".") {
			buf = append(buf, ".0"...)
		}
		return buf
	}
	buf = append(buf, mant...)
	buf = append(buf, 'e')
	if exp < 0 {
		buf = append(buf, '-')
		exp = -exp
	} else {
		buf = append(buf, '+')
	}
	if exp < 10 && !js {
		buf = append(buf, '0') // Python writes at least two exponent digits
	}
	return strconv.AppendInt(buf, int64(exp), 10)
}

const hexDigits = "0123456789abcdef"

// appendString quotes s. Invalid UTF-8 becomes U+FFFD (as Python's
// errors="replace" decoding would have produced). Control characters use the
// short escapes where JSON has them; PythonASCII also escapes DEL and every
// non-ASCII code point (as \uXXXX, with surrogate pairs above the BMP).
func appendString(buf []byte, s string, st Style) []byte {
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		// A run of bytes written as they are, in one append: a journal
		// record is mostly such runs (commands, paths, rule text).
		j := i
		for j < len(s) && s[j] >= 0x20 && s[j] < 0x7f && s[j] != '"' && s[j] != '\\' {
			j++
		}
		if j > i {
			buf = append(buf, s[i:j]...)
			i = j
			continue
		}
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"':
				buf = append(buf, '\\', '"')
			case c == '\\':
				buf = append(buf, '\\', '\\')
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
		if st == PythonASCII {
			buf = appendUnicodeEscape(buf, r)
			if r == utf8.RuneError && size == 1 {
				size = MaximalSubpart(s[i:])
			}
		} else if r == utf8.RuneError && size == 1 {
			buf = append(buf, "\uFFFD"...)
			size = MaximalSubpart(s[i:])
		} else {
			buf = append(buf, s[i:i+size]...)
		}
		i += size
	}
	return append(buf, '"')
}

func appendUnicodeEscape(buf []byte, r rune) []byte {
	if r > 0xFFFF {
		r -= 0x10000
		buf = appendU16(buf, 0xD800+(r>>10))
		return appendU16(buf, 0xDC00+(r&0x3FF))
	}
	return appendU16(buf, r)
}

func appendU16(buf []byte, r rune) []byte {
	return append(buf, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

func isJSONNumber(s string) bool {
	if s == "" {
		return false
	}
	return json.Valid([]byte(s)) && (s[0] == '-' || (s[0] >= '0' && s[0] <= '9'))
}

var errTrailing = errors.New("unexpected data after the JSON value")

// Decode parses exactly one JSON value. Numbers stay json.Number so that
// they are passed on to hooks exactly as the host wrote them.
func Decode(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errTrailing
	}
	// dec.More is false at EOF and before a closing bracket; make sure only
	// whitespace follows.
	rest := data[dec.InputOffset():]
	if len(bytes.TrimSpace(rest)) != 0 {
		return nil, errTrailing
	}
	return v, nil
}
