//go:build linux

package fsutil

import (
	"os"
	"path/filepath"
	"testing"
)

// TestViaProcess: a path that leads into /proc or /dev/fd, itself
// or through links (absolute or relative, chained), names another program
// for each process; any other path, and a loop of links, is judged as
// before; a loop of links, past any bound the kernel follows, is not
// taken for ours either.
func TestViaProcess(t *testing.T) {
	dir := t.TempDir()
	link := func(name, target string) string {
		p := filepath.Join(dir, name)
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	plain := filepath.Join(dir, "plain")
	if err := os.WriteFile(plain, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	cwd := link("cwd", "/proc/self/cwd")
	chain := link("chain", "cwd/sub/tool")
	up := link("up", "../"+filepath.Base(dir)+"/chain")
	loopA := link("loopA", "loopB")
	link("loopB", "loopA")
	toPlain := link("toPlain", "plain")
	for _, c := range []struct {
		path string
		want bool
	}{
		{"/proc/self/exe", true},
		{"/proc/thread-self/root/usr/bin/hermes-hooks", true},
		{"/dev/fd/3", true},
		{"/dev/stdin", true},
		{"/proc", true},
		{"/procx/bin", false},
		{cwd + "/hermes-hooks", true},
		{chain, true},
		{up, true},
		{plain, false},
		{toPlain, false},
		{loopA, true},
		{filepath.Join(dir, "missing", "x"), false},
		{"relative/proc/self/exe", false},
	} {
		if got := ViaProcess(c.path); got != c.want {
			t.Errorf("ViaProcess(%q) = %v, want %v", c.path, got, c.want)
		}
	}
}
