package consent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// utf8BOM is stripped before parsing because some editors on Windows save
// JSON with it and Python's json module would otherwise reject the file.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// decodeJSON parses exactly one JSON value. Numbers are kept as json.Number so
// that values we do not understand are written back with their original
// digits instead of being rounded through float64.
func decodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	// Python's json.loads rejects trailing data ("Extra data"), so a file
	// that Hermes considers corrupt must be corrupt here too.
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err == nil {
			return nil, errors.New("invalid JSON: extra data after the top-level value")
		}
		return nil, err
	}
	return v, nil
}

// appendPyJSON appends v formatted as Python's
// json.dumps(v, indent=2, sort_keys=True, ensure_ascii=False) would format
// it. Matching that byte for byte keeps files written by Hermes and by us
// diff-identical, which matters to users who keep the file in version
// control.
func appendPyJSON(b []byte, v any, level int) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, v)
	case json.Number:
		return append(b, pyNumber(string(v))...)
	case string:
		return appendPyString(b, v)
	case int:
		return strconv.AppendInt(b, int64(v), 10)
	case []any:
		if len(v) == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		for i, item := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendNewlineIndent(b, level+1)
			b = appendPyJSON(b, item, level+1)
		}
		b = appendNewlineIndent(b, level)
		return append(b, ']')
	case map[string]any:
		if len(v) == 0 {
			return append(b, "{}"...)
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		// Byte order of UTF-8 equals code point order, which is how Python
		// sorts str keys.
		sort.Strings(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendNewlineIndent(b, level+1)
			b = appendPyString(b, k)
			b = append(b, ": "...)
			b = appendPyJSON(b, v[k], level+1)
		}
		b = appendNewlineIndent(b, level)
		return append(b, '}')
	default:
		// Only the types produced by decodeJSON and by this package reach
		// here; anything else is a programming error, and writing its Go
		// syntax as a string keeps the file valid JSON regardless.
		return appendPyString(b, fmt.Sprint(v))
	}
}

// pyNumber rewrites a JSON number the way Python's json module round-trips
// it: integers stay exact (only "-0" changes, to "0"), anything with a
// fraction or exponent becomes a float and is written as repr() writes it.
// A float beyond float64's range keeps its text; Python would write
// Infinity, which is not JSON and which neither tool could read back.
func pyNumber(s string) string {
	if !strings.ContainsAny(s, ".eE") {
		if s == "-0" {
			return "0"
		}
		return s
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) {
		return s
	}
	return pyFloatRepr(f)
}

// pyFloatRepr is Python's repr() of a finite float: the shortest digits that
// round-trip, in positional notation with at least one decimal when the
// decimal exponent is in [-4, 16), otherwise in scientific notation with a
// signed, at least two-digit exponent.
func pyFloatRepr(f float64) string {
	if f == 0 {
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // like -1.2345e+06
	sign := ""
	if e[0] == '-' {
		sign, e = "-", e[1:]
	}
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mant, ".", "", 1)
	if -4 <= exp && exp < 16 {
		if exp < 0 {
			return sign + "0." + strings.Repeat("0", -exp-1) + digits
		}
		if len(digits) <= exp+1 {
			return sign + digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
		}
		return sign + digits[:exp+1] + "." + digits[exp+1:]
	}
	m := digits[:1]
	if len(digits) > 1 {
		m += "." + digits[1:]
	}
	return fmt.Sprintf("%s%se%+03d", sign, m, exp)
}

func appendNewlineIndent(b []byte, level int) []byte {
	b = append(b, '\n')
	for range level {
		b = append(b, "  "...)
	}
	return b
}

// appendPyString escapes like Python with ensure_ascii=False: only the quote,
// the backslash and C0 control characters are escaped, everything else
// (including <, >, &, U+2028 and DEL) is written raw. Invalid UTF-8 becomes
// U+FFFD because the file must stay valid UTF-8 for Python to read it.
func appendPyString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				b = append(b, '\\', '"')
			case '\\':
				b = append(b, '\\', '\\')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				if c < 0x20 {
					b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
				} else {
					b = append(b, c)
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
