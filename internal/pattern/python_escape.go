package pattern

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Python escapes and character classes.

// pyEscape handles a backslash outside a class.
func pyEscape(s *planState, groups int, closed map[int]bool) error {
	p := s.p
	if s.i+1 >= len(p) {
		return rxError("bad escape (end of pattern)")
	}
	d := p[s.i+1]
	switch {
	case d == '0':
		j := s.i + 2
		for j < len(p) && j < s.i+4 && p[j] >= '0' && p[j] <= '7' {
			j++
		}
		v, _ := strconv.ParseUint("0"+p[s.i+2:j], 8, 32)
		s.i = j
		s.slow()
		s.atom(runeLiteral(rune(v)))
	case isDigit(d):
		if s.i+3 < len(p) && d <= '7' && p[s.i+2] >= '0' && p[s.i+2] <= '7' && p[s.i+3] >= '0' && p[s.i+3] <= '7' {
			v, _ := strconv.ParseUint(p[s.i+1:s.i+4], 8, 32)
			if v > 0o377 {
				return rxError("octal escape value \\" + p[s.i+1:s.i+4] + " outside of range 0-0o377")
			}
			s.i += 4
			s.slow()
			s.atom(runeLiteral(rune(v)))
			return nil
		}
		j := s.i + 2
		if j < len(p) && isDigit(p[j]) {
			j++
		}
		n, _ := strconv.Atoi(p[s.i+1 : j])
		if n > groups {
			return rxError("invalid group reference " + strconv.Itoa(n))
		}
		if !closed[n] {
			return rxError("cannot refer to an open group")
		}
		s.i = j
		s.slow()
		s.atom(`(?:\` + strconv.Itoa(n) + `)`)
	case isLetter(d):
		s.i += 2
		switch d {
		case 'a', 'f', 'n', 'r', 't', 'v':
			s.atom(`\` + string(d))
		case 'd', 'D', 'w', 'W', 's', 'S':
			s.notExact() // Unicode classes in Python, ASCII in RE2
			s.atom(`\` + string(d))
		case 'b', 'B':
			s.notExact()
			s.assert(`\` + string(d))
		case 'A':
			s.assert(`\A`)
		case 'Z':
			s.slow()
			s.assert(`\z`)
		case 'x':
			if !hexDigits(p[s.i:], 2) {
				return rxError("incomplete escape \\x")
			}
			s.atom(`\x` + p[s.i:s.i+2])
			s.i += 2
		case 'u', 'U':
			n := 4
			if d == 'U' {
				n = 8
			}
			if !hexDigits(p[s.i:], n) {
				return rxError("incomplete escape \\" + string(d))
			}
			v, _ := strconv.ParseUint(p[s.i:s.i+n], 16, 32)
			if v > unicode.MaxRune {
				return rxError("bad escape \\" + string(d) + p[s.i:s.i+n])
			}
			s.i += n
			s.slow()
			s.atom(runeLiteral(rune(v)))
		case 'N':
			return rxError(`\N{...} named characters are not supported here`)
		default:
			return rxError("bad escape \\" + string(d))
		}
	case d >= utf8.RuneSelf:
		r, size := utf8.DecodeRuneInString(p[s.i+1:])
		s.i += 1 + size
		s.slow()
		s.atom(runeLiteral(r))
	default:
		s.i += 2
		s.atom(escapePunct(d))
	}
	return nil
}

// pyClass handles a character class.
func pyClass(s *planState) error {
	p := s.p
	start := s.i
	var b strings.Builder
	b.WriteByte('[')
	s.i++
	if s.i < len(p) && p[s.i] == '^' {
		b.WriteByte('^')
		s.i++
	}
	first := true
	for {
		if s.i >= len(p) {
			return rxError("unterminated character set")
		}
		if p[s.i] == ']' && !first {
			s.i++
			break
		}
		if p[s.i] == ']' {
			// A leading ] is a member.
			s.i++
			s.slow()
			b.WriteString(`\]`)
			first = false
			continue
		}
		isDash := p[s.i] == '-'
		if isDash && !first && s.i+1 < len(p) && p[s.i+1] != ']' {
			s.slow() // a - that is not a range, mid-class
		}
		first = false
		lo, loSet, err := pyClassItem(s)
		if err != nil {
			return err
		}
		if !isDash && s.i+1 < len(p) && p[s.i] == '-' && p[s.i+1] != ']' {
			s.i++
			hi, hiSet, err := pyClassItem(s)
			if err != nil {
				return err
			}
			if loSet || hiSet {
				return rxError("bad character range " + p[start:s.i])
			}
			b.WriteString(lo + "-" + hi)
			continue
		}
		b.WriteString(lo)
	}
	b.WriteByte(']')
	s.atom(b.String())
	return nil
}

// pyClassItem reads one class member: its regexp2 text, and whether it is
// a set (\d …) that cannot bound a range.
func pyClassItem(s *planState) (string, bool, error) {
	p := s.p
	c := p[s.i]
	switch {
	case c == '\\':
		if s.i+1 >= len(p) {
			return "", false, rxError("unterminated character set")
		}
		d := p[s.i+1]
		s.i += 2
		switch {
		case d >= '0' && d <= '7':
			j := s.i
			for j < len(p) && j < s.i+2 && p[j] >= '0' && p[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(p[s.i-1:j], 8, 32)
			if v > 0o377 {
				return "", false, rxError("octal escape value outside of range 0-0o377")
			}
			s.i = j
			s.slow()
			return runeLiteral(rune(v)), false, nil
		case d == '8' || d == '9':
			return "", false, rxError("bad escape \\" + string(d))
		case d == 'd' || d == 'D' || d == 'w' || d == 'W' || d == 's' || d == 'S':
			s.notExact()
			return `\` + string(d), true, nil
		case d == 'b':
			s.slow()
			return `\b`, false, nil
		case d == 'a' || d == 'f' || d == 'n' || d == 'r' || d == 't' || d == 'v':
			return `\` + string(d), false, nil
		case d == 'x':
			if !hexDigits(p[s.i:], 2) {
				return "", false, rxError("incomplete escape \\x")
			}
			s.i += 2
			return `\x` + p[s.i-2:s.i], false, nil
		case d == 'u' || d == 'U':
			n := 4
			if d == 'U' {
				n = 8
			}
			if !hexDigits(p[s.i:], n) {
				return "", false, rxError("incomplete escape \\" + string(d))
			}
			v, _ := strconv.ParseUint(p[s.i:s.i+n], 16, 32)
			if v > unicode.MaxRune {
				return "", false, rxError("bad escape \\" + string(d))
			}
			s.i += n
			s.slow()
			return runeLiteral(rune(v)), false, nil
		case d == 'N':
			return "", false, rxError(`\N{...} named characters are not supported here`)
		case isLetter(d) || isDigit(d):
			return "", false, rxError("bad escape \\" + string(d))
		case d >= utf8.RuneSelf:
			s.i--
			r, size := utf8.DecodeRuneInString(p[s.i:])
			s.i += size
			s.slow()
			return runeLiteral(r), false, nil
		}
		return escapePunct(d), false, nil
	case c == '[':
		// A literal [ in Python (with a FutureWarning); RE2 reads
		// [:alpha:] and .NET -[…] subtraction, so escape it.
		s.i++
		s.slow()
		return `\[`, false, nil
	case c == '-':
		s.i++
		return `\-`, false, nil
	}
	r, size := utf8.DecodeRuneInString(p[s.i:])
	s.i += size
	if r == '^' {
		return `\^`, false, nil
	}
	return runeLiteral(r), false, nil
}
