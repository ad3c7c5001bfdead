package agents

import (
	"regexp"
	"strings"
	"sync"
)

// dotenvLine is the line rule of the dotenv package Gemini CLI and Qwen
// Code parse .env files with: KEY=value or KEY: value, an optional
// "export ", a value single-, double- or back-quoted (across lines) or
// bare up to a #. Compiled on first use, not at start: most commands
// never read a .env, and compiling cost every process 28 µs.
var dotenvLine = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*` + "`(?:\\\\`|[^`])*`" + `|[^#\r\n]+)?\s*(?:#.*)?$`)
})

// ParseDotenv reads a .env file as dotenv's parse does: line ends made
// \n, each match of its line rule a variable (a later one replacing an
// earlier), the value trimmed, one pair of enclosing quotes removed, and
// \n and \r in a double-quoted value made line breaks. Go's \s, ^ and
// trim are ASCII's where dotenv's (JavaScript's) also take U+00A0,
// U+2028 …: a file with any byte past ASCII's printable ones, or a
// control character other than tab and line ends, may read differently
// here (PlainDotenv tells).
func ParseDotenv(data []byte) map[string]string {
	src := strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r", "\n")
	env := map[string]string{}
	for _, m := range dotenvLine().FindAllStringSubmatch(src, -1) {
		v := strings.TrimSpace(m[2])
		quote := byte(0)
		if v != "" {
			quote = v[0]
		}
		if len(v) >= 2 && strings.IndexByte("'\"`", v[0]) >= 0 && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		if quote == '"' {
			v = strings.ReplaceAll(strings.ReplaceAll(v, `\n`, "\n"), `\r`, "\r")
		}
		env[m[1]] = v
	}
	return env
}

// PlainDotenv reports whether data holds only printable ASCII, tabs and
// line ends: the bytes on which ParseDotenv and dotenv agree.
func PlainDotenv(data []byte) bool {
	for _, b := range data {
		if (b < ' ' || b > '~') && b != '\t' && b != '\n' && b != '\r' {
			return false
		}
	}
	return true
}

// jsSpace is JavaScript's \s (and what its trim removes): ASCII's
// whitespace with \v and \f, and Unicode's spaces, U+FEFF among them.
const jsSpace = `\t\n\v\f\r \x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}\x{feff}`

// dotenvStart is a line that starts to set a variable, as loosely as
// dotenv could read one: after any JavaScript whitespace, at a line start
// JavaScript's multiline ^ sees (U+2028 and U+2029 too).
var dotenvStart = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\A|[\n\r\x{2028}\x{2029}])[` + jsSpace + `]*(?:export[` + jsSpace + `]+)?([\w.-]+)[` + jsSpace + `]*[=:]`)
})

// DotenvNames reports whether data has a line that starts to set name (a
// looser reading than ParseDotenv's): where the two disagree about a
// hostile file, the variable counts as set by it.
func DotenvNames(data []byte, name string) bool {
	return DotenvNamed(data)[name]
}

// DotenvNamed are the names data has a line start to set (DotenvNames),
// found in one pass.
func DotenvNamed(data []byte) map[string]bool {
	named := map[string]bool{}
	for _, m := range dotenvStart().FindAllSubmatch(data, -1) {
		named[string(m[1])] = true
	}
	return named
}
