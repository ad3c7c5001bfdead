package hookconfig

import (
	"bytes"
	"os"
	"strings"
	"unicode/utf8"
)

// expandTilde expands a leading "~" or "~/…" with the user's home.
func expandTilde(p string) string {
	if p != "~" && !strings.HasPrefix(p, "~/") {
		return p
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return p
	}
	return home + p[1:]
}

// jsonPos converts a byte offset into a 1-based line and column (in
// characters, as an editor counts them).
func jsonPos(data []byte, offset int64) (line, col int) {
	offset = min(max(offset, 0), int64(len(data)))
	before := data[:offset]
	start := bytes.LastIndexByte(before, '\n') + 1
	return bytes.Count(before, []byte("\n")) + 1, utf8.RuneCount(before[start:]) + 1
}
