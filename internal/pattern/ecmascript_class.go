package pattern

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// JavaScript character classes.

// jsClass handles a character class.
func jsClass(s *planState) error {
	p := s.p
	var b strings.Builder
	b.WriteByte('[')
	s.i++
	if s.i < len(p) && p[s.i] == '^' {
		b.WriteByte('^')
		s.i++
	}
	if s.i < len(p) && p[s.i] == ']' {
		// [] matches nothing and [^] anything; RE2 reads a member ].
		s.i++
		s.slow()
		b.WriteByte(']')
		s.atom(b.String())
		return nil
	}
	first := true
	for {
		if s.i >= len(p) {
			return rxError("unterminated character class")
		}
		if p[s.i] == ']' {
			s.i++
			break
		}
		isDash := p[s.i] == '-'
		if isDash && !first && s.i+1 < len(p) && p[s.i+1] != ']' {
			s.slow()
		}
		first = false
		lo, loSet := jsClassItem(s)
		if !isDash && s.i+1 < len(p) && p[s.i] == '-' && p[s.i+1] != ']' {
			s.i++
			hi, hiSet := jsClassItem(s)
			if loSet || hiSet {
				// Annex B: no range with a class escape; the - is itself.
				s.slow()
				b.WriteString(lo + `\-` + hi)
				continue
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

// jsClassItem reads one class member: its regexp2 text, and whether it is
// a set (\d …) that cannot bound a range.
func jsClassItem(s *planState) (string, bool) {
	p := s.p
	c := p[s.i]
	if c == '[' {
		s.i++
		s.slow()
		return `\[`, false
	}
	if c == '-' {
		s.i++
		return `\-`, false
	}
	if c != '\\' || s.i+1 >= len(p) {
		r, size := utf8.DecodeRuneInString(p[s.i:])
		s.i += size
		if r == '^' {
			return `\^`, false
		}
		if r == '\\' {
			return `\\`, false
		}
		return runeLiteral(r), false
	}
	d := p[s.i+1]
	s.i += 2
	switch {
	case d == 'd' || d == 'D' || d == 'w' || d == 'W':
		return `\` + string(d), true
	case d == 's' || d == 'S':
		s.notExact()
		return `\` + string(d), true
	case d == 'b':
		s.slow()
		return `\b`, false
	case d == 't' || d == 'n' || d == 'v' || d == 'f' || d == 'r':
		return `\` + string(d), false
	case d == '-':
		return `\-`, false
	case d == 'c':
		s.slow()
		if s.i < len(p) && (isLetter(p[s.i]) || isDigit(p[s.i]) || p[s.i] == '_') {
			s.i++
			return runeLiteral(rune(p[s.i-1] % 32)), false
		}
		s.i-- // a literal backslash; the c is read next
		return `\\`, false
	case d == 'x' && hexDigits(p[s.i:], 2):
		s.i += 2
		return `\x` + p[s.i-2:s.i], false
	case d == 'u' && hexDigits(p[s.i:], 4):
		v, _ := strconv.ParseUint(p[s.i:s.i+4], 16, 32)
		s.i += 4
		s.slow()
		return runeLiteral(rune(v)), false
	case isDigit(d):
		s.slow()
		if d == '8' || d == '9' {
			return string(d), false
		}
		s.i--
		k := s.i
		for k < len(p) && k < s.i+3 && p[k] >= '0' && p[k] <= '7' {
			k++
		}
		v, _ := strconv.ParseUint(p[s.i:k], 8, 32)
		if v > 0o377 {
			k--
			v, _ = strconv.ParseUint(p[s.i:k], 8, 32)
		}
		s.i = k
		return runeLiteral(rune(v)), false
	case isLetter(d):
		s.slow()
		return string(d), false
	case d >= utf8.RuneSelf:
		s.i--
		r, size := utf8.DecodeRuneInString(p[s.i:])
		s.i += size
		s.slow()
		return runeLiteral(r), false
	}
	return escapePunct(d), false
}
