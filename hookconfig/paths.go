package hookconfig

import (
	"bytes"
	"os"
	"strings"
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

// jsonLine converts a byte offset into a 1-based line number.
func jsonLine(data []byte, offset int64) int {
	if offset > int64(len(data)) {
		offset = int64(len(data))
	}
	return bytes.Count(data[:offset], []byte("\n")) + 1
}
