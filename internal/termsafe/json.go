package termsafe

import (
	"unicode/utf16"
	"unicode/utf8"
)

// EscapeJSON returns the JSON text b with every character Escape would
// render written so that no terminal acts on it, the JSON value kept:
// inside a string a control, DEL, an unsafe rune (see unsafeRune) or an
// invalid byte becomes its \uXXXX escape (an invalid byte U+FFFD, as a
// decoder reads it); outside a string a control byte (JSON's \t, \r and
// \n whitespace, or bytes no JSON holds) becomes a space. It returns b
// itself, without allocating, when nothing needs a change: the journal
// runs every record through it, so that a line is safe wherever it is
// printed whole (log --json, a syslog message, a tail of the file) while
// it still decodes to what was recorded.
func EscapeJSON(b []byte) []byte {
	var out []byte // nil until the first change
	inString := false
	for i := 0; i < len(b); {
		c := b[i]
		if c >= 0x20 && c < 0x7f {
			switch {
			case inString && c == '\\' && i+1 < len(b) && b[i+1] >= 0x20 && b[i+1] < 0x7f:
				// An escape: its second byte never ends the string.
				if out != nil {
					out = append(out, c, b[i+1])
				}
				i += 2
				continue
			case c == '"':
				inString = !inString
			}
			if out != nil {
				out = append(out, c)
			}
			i++
			continue
		}
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(b[i:])
		}
		bad := c < 0x20 || c == 0x7f || (r == utf8.RuneError && size <= 1) || unsafeRune(r)
		if !bad {
			if out != nil {
				out = append(out, b[i:i+size]...)
			}
			i += size
			continue
		}
		if out == nil {
			out = make([]byte, 0, len(b)+16)
			out = append(out, b[:i]...)
		}
		switch {
		case !inString && c < utf8.RuneSelf:
			out = append(out, ' ')
		case r == utf8.RuneError && size <= 1:
			out = append(out, `\ufffd`...)
		case r > 0xffff:
			// JSON escapes only 16-bit units: a surrogate pair.
			hi, lo := utf16.EncodeRune(r)
			out = append(out, `\u`...)
			out = appendHex(out, uint32(hi), 4)
			out = append(out, `\u`...)
			out = appendHex(out, uint32(lo), 4)
		default:
			out = append(out, `\u`...)
			out = appendHex(out, uint32(r), 4)
		}
		i += size
	}
	if out == nil {
		return b
	}
	return out
}
