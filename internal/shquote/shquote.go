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
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if !IsNameByte(name[i], i == 0) {
			return false
		}
	}
	return true
}

// IsNameByte reports whether c may stand in a variable name, at its start
// when first.
func IsNameByte(c byte, first bool) bool {
	return c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || !first && '0' <= c && c <= '9'
}
