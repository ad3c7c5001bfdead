package pyjson

// StringScan follows JSON text a byte at a time and tells the bytes of its
// strings from the rest, for scans that look at what is outside strings
// (a bound on the values a text holds, a token to replace) without
// decoding it.
type StringScan struct{ in, escaped bool }

// In reports whether c, the next byte, lies inside a string: after its
// opening quote, through its closing one. The opening quote itself is
// outside (a caller sees where a string starts); In is true from the byte
// after it.
func (s *StringScan) In(c byte) bool {
	if s.in {
		switch {
		case s.escaped:
			s.escaped = false
		case c == '\\':
			s.escaped = true
		case c == '"':
			s.in = false
		}
		return true
	}
	if c == '"' {
		s.in = true
	}
	return false
}
