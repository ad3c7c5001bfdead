// Package shquote quotes one word for a POSIX shell. It is the one place
// the CLI, consent hints and agent hook files spell a word so that `sh -c`
// reads it back unchanged, and says which names the shell reads as a
// variable's.
package shquote

import "strings"

// Quote single-quotes s, escaping its single quotes: always safe.
func Quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// IfNeeded returns s as it is when the shell would read it unchanged, else
// Quote(s): for messages people copy.
func IfNeeded(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`!*?[](){}<>|&;#~") {
		return s
	}
	return Quote(s)
}

// IsName reports whether name is a shell variable name: a letter or '_',
// then letters, digits and '_'.
func IsName(name string) bool {
	return name != "" && nameLen(name) == len(name)
}

// IsNameByte reports whether c may stand in a variable name, at its start
// when first.
func IsNameByte(c byte, first bool) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || !first && '0' <= c && c <= '9'
}

// Expand is s with each $NAME and ${NAME} for which value says ok replaced
// by its value; every other "$" is text, kept as written ($$, $1, ${A:-b},
// a name value does not know). A name is the longest run IsNameByte
// allows, so in "a$$B" the second $ starts $B. It is the one reading of
// a variable in a hook's text: consent's paths and http hooks' headers.
func Expand(s string, value func(name string) (string, bool)) string {
	if !strings.Contains(s, "$") {
		return s
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '$')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		rest := s[i+1:]
		if n := nameLen(rest); n > 0 {
			if v, ok := value(rest[:n]); ok {
				b.WriteString(v)
				s = rest[n:]
				continue
			}
		} else if strings.HasPrefix(rest, "{") {
			if n := nameLen(rest[1:]); n > 0 && strings.HasPrefix(rest[1+n:], "}") {
				if v, ok := value(rest[1 : 1+n]); ok {
					b.WriteString(v)
					s = rest[n+2:]
					continue
				}
			}
		}
		b.WriteByte('$')
		s = rest
	}
}

// nameLen is the length of the variable name s starts with (0: none).
func nameLen(s string) int {
	for i := 0; i < len(s); i++ {
		if !IsNameByte(s[i], i == 0) {
			return i
		}
	}
	return len(s)
}
