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
// it costs a hook call nothing but the comparison. Names compare as the
// file system compares them: on Windows without regard to case. An empty
// p or dir is in no tree; a relative one is only ever in a relative one.
func InTree(p, dir string) bool {
	if p == "" || dir == "" {
		return false
	}
	p, dir = filepath.Clean(p), filepath.Clean(dir)
	if runtime.GOOS == "windows" {
		p, dir = strings.ToLower(p), strings.ToLower(dir)
	}
	if !strings.HasPrefix(p, dir) {
		return false
	}
	// "/" and `C:\` end in a separator; any other dir is followed by one.
	return len(p) == len(dir) || os.IsPathSeparator(dir[len(dir)-1]) || os.IsPathSeparator(p[len(dir)])
}
