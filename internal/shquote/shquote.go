// Package shquote quotes one word for a POSIX shell. It is the one place
// the CLI, consent hints and agent hook files spell a word so that `sh -c`
// reads it back unchanged.
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
