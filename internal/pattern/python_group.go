package pattern

import (
	"strconv"
	"strings"
	"unicode"
)

// Python groups and inline flags: what follows a "(".

// push opens a group that started at output offset start.
func (s *pyParser) push(start, capture int) {
	s.stack = append(s.stack, pyGroup{start: start, verbose: s.verbose, capture: capture})
}

// open handles a "(": a capturing group, or an extension "(?…".
func (s *pyParser) open() error {
	p := s.p
	start := len(s.out)
	group := true
	if s.i+1 < len(p) && p[s.i+1] == '?' {
		var err error
		if group, err = s.extension(start); err != nil {
			return err
		}
	} else {
		s.i++
		s.groups++
		s.push(start, s.groups)
		s.emit("(")
	}
	if group {
		// A group is open: what follows is no global flag, and a
		// quantifier right after "(" has nothing to repeat. (A comment
		// and global flags leave both as they were; a (?P=name)
		// reference is an atom, which atom recorded.)
		s.emitted = true
		s.atomStart, s.lastQuant = -1, false
	}
	return nil
}

// extension handles "(?…" at s.i, whose output starts at start; group is
// false for what opens no group ((?P=name), (?#…), global flags).
func (s *pyParser) extension(start int) (group bool, err error) {
	p := s.p
	if s.i+2 >= len(p) {
		return false, rxError("unexpected end of pattern")
	}
	e := p[s.i+2]
	switch {
	case e == ':':
		s.i += 3
		s.push(start, 0)
		s.emit("(?:")
	case e == 'P' && s.i+3 < len(p) && p[s.i+3] == '<':
		return true, s.namedGroup(start)
	case e == 'P' && s.i+3 < len(p) && p[s.i+3] == '=':
		return false, s.namedRef()
	case e == 'P':
		return false, rxError("unknown extension ?P")
	case e == '=' || e == '!':
		s.i += 3
		s.slow()
		s.push(start, 0)
		s.emit("(?" + string(e))
	case e == '<' && s.i+3 < len(p) && (p[s.i+3] == '=' || p[s.i+3] == '!'):
		s.i += 4
		s.slow()
		s.push(start, 0)
		s.emit("(?<" + string(p[s.i-1]))
	case e == '<':
		return false, rxError("unknown extension ?<" + string(p[min(s.i+3, len(p)-1)]) + " (Python names groups (?P<name>…))")
	case e == '#':
		end := strings.IndexByte(p[s.i:], ')')
		if end < 0 {
			return false, rxError("missing ), unterminated comment")
		}
		s.i += end + 1
		s.slow()
		return false, nil
	case e == '>':
		s.i += 3
		s.slow()
		s.push(start, 0)
		s.emit("(?>")
	case e == '(':
		return true, s.conditional(start)
	case strings.IndexByte("aiLmsux-", e) >= 0:
		return s.flags(start)
	default:
		return false, rxError("unknown extension ?" + string(e))
	}
	return true, nil
}

// namedGroup handles "(?P<name>".
func (s *pyParser) namedGroup(start int) error {
	p := s.p
	end := strings.IndexByte(p[s.i+4:], '>')
	if end < 0 {
		return rxError("missing >, unterminated name")
	}
	name := p[s.i+4 : s.i+4+end]
	if !isIdentifier(name) {
		return rxError("bad character in group name '" + name + "'")
	}
	if _, dup := s.names[name]; dup {
		return rxError("redefinition of group name '" + name + "'")
	}
	s.groups++
	s.names[name] = s.groups
	s.i += 5 + end
	s.push(start, s.groups)
	s.emit("(?<" + name + ">")
	return nil
}

// namedRef handles the back-reference "(?P=name)".
func (s *pyParser) namedRef() error {
	p := s.p
	end := strings.IndexByte(p[s.i+4:], ')')
	if end < 0 {
		return rxError("missing ), unterminated name")
	}
	name := p[s.i+4 : s.i+4+end]
	n, ok := s.names[name]
	if !ok {
		return rxError("unknown group name '" + name + "'")
	}
	if !s.closed[n] {
		return rxError("cannot refer to an open group")
	}
	s.i += 5 + end
	s.slow()
	s.atom(`\k<` + name + `>`)
	return nil
}

// conditional handles "(?(group)".
func (s *pyParser) conditional(start int) error {
	p := s.p
	end := strings.IndexByte(p[s.i+3:], ')')
	if end < 0 {
		return rxError("missing ), unterminated name")
	}
	cond := p[s.i+3 : s.i+3+end]
	if n, err := strconv.Atoi(cond); err == nil {
		if n < 1 || n > s.groups {
			return rxError("invalid group reference " + cond)
		}
	} else if _, ok := s.names[cond]; !ok {
		return rxError("unknown group name '" + cond + "'")
	}
	s.i += 4 + end
	s.slow()
	s.push(start, 0)
	s.emit("(?(" + cond + ")")
	return nil
}

// flags handles inline flags: global "(?ims)" (group false) or scoped
// "(?i-s:".
func (s *pyParser) flags(start int) (group bool, err error) {
	add, del, scoped, n, err := pyFlags(s.p[s.i+2:])
	if err != nil {
		return false, err
	}
	s.i += 2 + n
	if strings.ContainsRune(add, 'a') {
		if scoped {
			return false, rxError("a scoped (?a:…) ASCII flag is not supported here")
		}
		s.ascii = true
	}
	if !scoped {
		if len(s.stack) > 0 || s.emitted {
			return false, rxError("global flags not at the start of the expression")
		}
		if f := imsFlags(add) + strings.Map(func(r rune) rune {
			if r == 'x' {
				return r
			}
			return -1
		}, add); f != "" {
			s.fastPrefix += "(?" + f + ")"
		}
		s.fastFrom = s.i
		if strings.ContainsRune(add, 'i') {
			s.ignoreCase = true
		}
		if strings.ContainsRune(add, 'x') {
			s.verbose = true
			s.slow()
		}
		if f := imsFlags(add); f != "" {
			s.emit("(?" + f + ")")
		}
		return false, nil
	}
	if strings.ContainsRune(add, 'i') {
		s.ignoreCase = true
	}
	s.push(start, 0)
	if strings.ContainsRune(add, 'x') {
		s.verbose = true
		s.slow()
	}
	if strings.ContainsRune(del, 'x') {
		s.verbose = false
		s.slow()
	}
	x := "(?" + imsFlags(add)
	if d := imsFlags(del); d != "" {
		x += "-" + d
	}
	s.emit(x + ":")
	return true, nil
}

// imsFlags keeps the flags regexp2 and RE2 share with Python: i, m, s.
func imsFlags(f string) string {
	var b strings.Builder
	for _, r := range f {
		if strings.ContainsRune("ims", r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// pyFlags reads inline flags after "(?": "ims)" (global) or "i-s:"
// (scoped); n is how many bytes were read, including the terminator.
func pyFlags(p string) (add, del string, scoped bool, n int, err error) {
	i := 0
	for i < len(p) && strings.IndexByte("aiLmsux", p[i]) >= 0 {
		i++
	}
	add = p[:i]
	if i < len(p) && p[i] == '-' {
		j := i + 1
		for j < len(p) && strings.IndexByte("aiLmsux", p[j]) >= 0 {
			j++
		}
		del = p[i+1 : j]
		if del == "" {
			return "", "", false, 0, rxError("missing flag")
		}
		if strings.ContainsAny(del, "auL") {
			return "", "", false, 0, rxError("bad inline flags: cannot turn off flags 'a', 'u' and 'L'")
		}
		i = j
	}
	if i >= len(p) {
		return "", "", false, 0, rxError("missing -, : or )")
	}
	switch p[i] {
	case ')':
		if del != "" {
			return "", "", false, 0, rxError("missing :")
		}
	case ':':
		scoped = true
	default:
		return "", "", false, 0, rxError("unknown flag")
	}
	if strings.ContainsRune(add, 'L') {
		return "", "", false, 0, rxError("bad inline flags: cannot use 'L' flag with a str pattern")
	}
	if strings.ContainsRune(add, 'a') && strings.ContainsRune(add, 'u') {
		return "", "", false, 0, rxError("bad inline flags: flags 'a', 'u' and 'L' are incompatible")
	}
	for _, f := range add {
		if strings.ContainsRune(del, f) {
			return "", "", false, 0, rxError("bad inline flags: flag turned on and off")
		}
	}
	return add, del, scoped, i + 1, nil
}

func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if !(r == '_' || unicode.IsLetter(r) || i > 0 && unicode.IsDigit(r)) {
			return false
		}
	}
	return true
}
