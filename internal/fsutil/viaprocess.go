package fsutil

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// ViaProcess reports whether exe, an absolute path (a program a hook
// file's line runs, a script doctor would run), leads, itself or through any symbolic link on its way, into /proc or
// /dev/fd (or /dev/stdin and its kin): what such a path names depends on
// the process that opens it. "/proc/self/exe" is hermes-hooks to list and
// doctor, which took the line for ours, and sh to the agent's shell, which
// then runs the repository's file "hook"; a link of the repository's to
// /proc/self/cwd/… leads into the folder each process runs in. No verdict
// made in this process holds for the agent (report, install: such a
// program or script is never ours). Outside Linux and the BSDs' /dev/fd no path reads that way.
func ViaProcess(exe string) bool {
	if runtime.GOOS == "windows" || !filepath.IsAbs(exe) {
		return false
	}
	p := filepath.Clean(exe)
	for hop := 0; hop <= maxLinks; hop++ { // as the kernel bounds a lookup: a longer chain opens nothing
		if processPath(p) {
			return true
		}
		next, linked := firstLink(p)
		if !linked {
			return false
		}
		p = next
	}
	return true
}

// processPath reports whether p, cleaned, is under a tree whose names
// depend on the process that opens them.
func processPath(p string) bool {
	for _, top := range []string{"/proc", "/dev/fd"} {
		if p == top || strings.HasPrefix(p, top+"/") {
			return true
		}
	}
	switch p {
	case "/dev/stdin", "/dev/stdout", "/dev/stderr":
		return true
	}
	return false
}

// firstLink is p with its first symbolic link (from the root down)
// replaced by the link's target, cleaned; linked false when p holds none
// (or a part of it cannot be read: nothing is there to follow).
func firstLink(p string) (next string, linked bool) {
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	cur := "/"
	for i, part := range parts {
		step := filepath.Join(cur, part)
		fi, err := os.Lstat(step)
		if err != nil {
			return "", false
		}
		if fi.Mode()&os.ModeSymlink == 0 {
			cur = step
			continue
		}
		target, err := os.Readlink(step)
		if err != nil {
			return "", false
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(cur, target)
		}
		return filepath.Clean(filepath.Join(append([]string{target}, parts[i+1:]...)...)), true
	}
	return "", false
}
