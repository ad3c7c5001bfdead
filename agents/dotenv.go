package agents

import (
	"regexp"
	"strings"
)

// dotenvLine is the line rule of the dotenv package Gemini CLI and Qwen
// Code parse .env files with: KEY=value or KEY: value, an optional
// "export ", a value single-, double- or back-quoted (across lines) or
// bare up to a #.
var dotenvLine = regexp.MustCompile(`(?m)^\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*` + "`(?:\\\\`|[^`])*`" + `|[^#\r\n]+)?\s*(?:#.*)?$`)

// ParseDotenv reads a .env file as dotenv's parse does: line ends made
// \n, each match of its line rule a variable (a later one replacing an
// earlier), the value trimmed, one pair of enclosing quotes removed, and
// \n and \r in a double-quoted value made line breaks.
func ParseDotenv(data []byte) map[string]string {
	src := strings.ReplaceAll(strings.ReplaceAll(string(data), "\r\n", "\n"), "\r", "\n")
	env := map[string]string{}
	for _, m := range dotenvLine.FindAllStringSubmatch(src, -1) {
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

// DotenvNames reports whether data has a line that starts to set name (a
// looser reading than ParseDotenv's): where the two disagree about a
// hostile file, the variable counts as set by it.
func DotenvNames(data []byte, name string) bool {
	re := regexp.MustCompile(`(?m)^[\s\x{feff}]*(?:export\s+)?` + regexp.QuoteMeta(name) + `\s*[=:]`)
	return re.Match(data)
}
