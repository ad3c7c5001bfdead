package fsutil

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// InTree reports whether p is dir or a path below it, by their names
// once cleaned: no link is followed (a caller that must know where a
// link leads resolves both first) and nothing is looked at on disk, so
// it costs a hook call nothing but the comparison. On Windows letters
// A to Z compare without regard to case, as the file system compares
// them; other letters compare exactly (a stricter answer than NTFS's
// where they differ only in case, never a looser one: Unicode's folding
// would take the Kelvin sign for a k, which NTFS does not). An empty p or
// dir is in no tree; a relative one is only ever in a relative one.
func InTree(p, dir string) bool {
	if p == "" || dir == "" {
		return false
	}
	p, dir = filepath.Clean(p), filepath.Clean(dir)
	if runtime.GOOS == "windows" {
		p, dir = lowerASCII(p), lowerASCII(dir)
	}
	if !strings.HasPrefix(p, dir) {
		return false
	}
	// "/" and `C:\` end in a separator; any other dir is followed by one.
	return len(p) == len(dir) || os.IsPathSeparator(dir[len(dir)-1]) || os.IsPathSeparator(p[len(dir)])
}

// lowerASCII is s with A to Z lower-cased, and nothing else changed.
func lowerASCII(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}
