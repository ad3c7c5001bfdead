package agents

import (
	"bytes"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
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

// jsLineEnd reports whether r ends a line for JavaScript's multiline ^.
func jsLineEnd(r rune) bool { return r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029 }

// wordByte is a byte of a dotenv name ([\w.-]).
func wordByte(b byte) bool { return isWordByte(b) || b == '.' || b == '-' }

// DotenvNames reports whether data has a line that starts to set name (a
// looser reading than ParseDotenv's): at a line start JavaScript's
// multiline ^ sees (U+2028 and U+2029 too), after any of its whitespace
// and an optional "export", name, whitespace, then = or :. Where the two
// readings disagree about a hostile file, the variable counts as set by
// it. One pass over name's occurrences, no regular expression: a 4 MiB
// file of lines took half a second through one.
func DotenvNames(data []byte, name string) bool {
	for off := 0; ; {
		i := bytes.Index(data[off:], []byte(name))
		if i < 0 || name == "" {
			return false
		}
		at := off + i
		off = at + 1
		if startsLine(data[:at]) && assigns(data[at+len(name):]) {
			return true
		}
	}
}

// startsLine reports whether before, the text up to a name, puts the name
// where a line's first name goes: after a line start and whitespace, with
// an optional "export" and whitespace between.
func startsLine(before []byte) bool {
	if len(before) > 0 && wordByte(before[len(before)-1]) {
		return false // the end of a longer name
	}
	rest, broke := spaceBack(before)
	if broke || len(rest) == 0 {
		return true
	}
	if len(rest) == len(before) || !bytes.HasSuffix(rest, []byte("export")) {
		return false
	}
	rest = rest[:len(rest)-len("export")]
	if len(rest) > 0 && wordByte(rest[len(rest)-1]) {
		return false
	}
	rest, broke = spaceBack(rest)
	return broke || len(rest) == 0
}

// spaceBack strips the JavaScript whitespace b ends with; broke: a line
// end was among it.
func spaceBack(b []byte) (rest []byte, broke bool) {
	for len(b) > 0 {
		r, n := utf8.DecodeLastRune(b)
		if !pyjson.JSSpace(r) {
			break
		}
		broke = broke || jsLineEnd(r)
		b = b[:len(b)-n]
	}
	return b, broke
}

// assigns reports whether after, the text after a name, goes on to set
// it: whitespace, then = or :.
func assigns(after []byte) bool {
	for len(after) > 0 {
		r, n := utf8.DecodeRune(after)
		if r == '=' || r == ':' {
			return true
		}
		if !pyjson.JSSpace(r) {
			return false
		}
		after = after[n:]
	}
	return false
}
