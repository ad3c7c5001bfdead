package consent

import (
	"os"
	"path/filepath"
	"testing"
)

// TestHashCacheSharedAcrossProcesses: a large binary hashed by one process
// (a fresh HashCache is a new process) is not hashed again by the next
// while its stat identity holds; an edit that restores size and mtime is
// still seen, because ctime moved — and the cache then gives the new
// digest, never the old one.
func TestHashCacheSharedAcrossProcesses(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil || len(data) < cacheMinSize {
		t.Skipf("test binary unusable as a large ELF (%d bytes, %v)", len(data), err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "big-hook")
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	shared := filepath.Join(dir, HashCacheFile)
	target := &Target{Path: bin, Files: []string{bin}, Direct: true}
	pin := func() (string, int64) {
		c := &HashCache{File: shared} // a new process
		p := pinFiles(target, c)
		defer p.Close()
		return p.Sums()[0], c.computed.Load()
	}

	first, n := pin()
	if n != 1 || first == "" {
		t.Fatalf("first process: computed %d, sum %q", n, first)
	}
	if _, err := os.Stat(shared); err != nil {
		t.Fatalf("no shared digest file: %v", err)
	}
	again, n := pin()
	if n != 0 || again != first {
		t.Fatalf("second process re-hashed an unchanged binary (computed %d, %q vs %q)", n, again, first)
	}

	// Same size, same mtime, other bytes.
	fi, _ := os.Stat(bin)
	data[len(data)-1] ^= 0xff
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(bin, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	edited, n := pin()
	if n != 1 || edited == first {
		t.Fatalf("an edit restoring size and mtime was not noticed (computed %d)", n)
	}

	// A broken shared file is only a lost cache.
	if err := os.WriteFile(shared, []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if sum, n := pin(); n != 1 || sum != edited {
		t.Fatalf("with a broken shared file: computed %d, %q", n, sum)
	}
}
