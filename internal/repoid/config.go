package repoid

import (
	"bytes"
	"strings"
)

// Remotes returns the url values of every [remote "NAME"] section of a git
// config file, in file order. It reads git's syntax as far as a remote URL
// needs: section headers with a quoted subsection (or the old
// [remote.NAME] form) and a variable on the header's own line, names in
// any case, quoted values, escapes, comments and lines continued with a
// backslash. What it cannot read is skipped: a remote missed only means an
// identity with fewer IDs.
func Remotes(data []byte) []string {
	var urls []string
	inRemote := false
	for _, line := range logicalLines(data) {
		rest := strings.TrimLeft(line, " \t")
		if strings.HasPrefix(rest, "[") {
			var ok bool
			inRemote, rest, ok = header(rest)
			if !ok {
				inRemote = false
				continue
			}
		}
		if !inRemote {
			continue
		}
		name, value, ok := variable(rest)
		if ok && strings.EqualFold(name, "url") && value != "" {
			urls = append(urls, value)
		}
	}
	return urls
}

// logicalLines splits data into lines, joining a line that ends in an
// unescaped backslash with the next (git's continuation).
func logicalLines(data []byte) []string {
	data = bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})
	var out []string
	var cur strings.Builder
	for _, raw := range strings.Split(string(data), "\n") {
		raw = strings.TrimSuffix(raw, "\r")
		if n := trailingBackslashes(raw); n%2 == 1 {
			cur.WriteString(raw[:len(raw)-1])
			continue
		}
		cur.WriteString(raw)
		out = append(out, cur.String())
		cur.Reset()
	}
	if cur.Len() > 0 {
		out = append(out, cur.String())
	}
	return out
}

func trailingBackslashes(s string) int {
	n := 0
	for n < len(s) && s[len(s)-1-n] == '\\' {
		n++
	}
	return n
}

// header reads a section header at the start of line: whether it opens a
// remote section, and the rest of the line after the closing bracket.
func header(line string) (remote bool, rest string, ok bool) {
	line = line[1:]
	end := -1
	inQuote := false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '\\' && inQuote:
			i++
		case c == '"':
			inQuote = !inQuote
		case c == ']' && !inQuote:
			end = i
		}
		if end >= 0 {
			break
		}
	}
	if end < 0 {
		return false, "", false
	}
	h, rest := line[:end], line[end+1:]
	name := h
	if i := strings.IndexAny(h, " \t"); i >= 0 {
		name = h[:i]
	} else if i := strings.IndexByte(h, '.'); i >= 0 {
		name = h[:i]
	}
	return strings.EqualFold(name, "remote") && len(name) < len(h), rest, true
}

// variable reads "name = value" (or a bare name) from line.
func variable(line string) (name, value string, ok bool) {
	line = strings.TrimLeft(line, " \t")
	i := 0
	for i < len(line) && (isAlnum(line[i]) || line[i] == '-') {
		i++
	}
	if i == 0 {
		return "", "", false
	}
	name, rest := line[:i], strings.TrimLeft(line[i:], " \t")
	switch {
	case rest == "" || rest[0] == '#' || rest[0] == ';':
		return name, "", true
	case rest[0] != '=':
		return "", "", false
	}
	return name, unquote(rest[1:]), true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// unquote reads a value as git does: quotes toggle, backslash escapes,
// a comment outside quotes ends it, and surrounding unquoted whitespace
// is dropped.
func unquote(v string) string {
	var b strings.Builder
	inQuote := false
	pending := 0 // unquoted blanks not yet written: kept only if more follows
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case !inQuote && (c == ' ' || c == '\t'):
			if b.Len() > 0 {
				pending++
			}
			continue
		case !inQuote && (c == '#' || c == ';'):
			return b.String()
		}
		for ; pending > 0; pending-- {
			b.WriteByte(' ')
		}
		switch {
		case c == '"':
			inQuote = !inQuote
		case c == '\\' && i+1 < len(v):
			i++
			switch v[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'b':
				b.WriteByte('\b')
			default:
				b.WriteByte(v[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
