package cmdpin

import (
	"os"
	"path/filepath"
	"testing"
)

// The cache hashes a file once per version, keyed by path and identity.
func TestHashCache_DoesNotRehashUnchangedFiles(t *testing.T) {
	var c Cache
	script := filepath.Join(cachingDir(t), "hook.sh")
	writeFile(t, script, "one", 0o755)
	settle(t, script)
	for range 5 {
		if sum, err := c.Sum(script); err != nil || sum != sha256Hex("one") {
			t.Fatal(sum, err)
		}
	}
	if n := c.computed.Load(); n != 1 {
		t.Fatalf("hashed %d times, want 1", n)
	}
	writeFile(t, script, "two!", 0o755)
	if sum, _ := c.Sum(script); sum != sha256Hex("two!") {
		t.Fatal("stale digest after edit")
	}
	// Replacing the file by rename with identical size and mtime is still
	// noticed: the inode differs.
	repl := script + ".new"
	writeFile(t, repl, "TWO!", 0o755)
	fi, _ := os.Stat(script)
	if err := os.Chtimes(repl, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(repl, script); err != nil {
		t.Fatal(err)
	}
	if sum, _ := c.Sum(script); sum != sha256Hex("TWO!") {
		t.Fatal("stale digest after replacement")
	}
	if n := c.computed.Load(); n != 3 {
		t.Errorf("hashed %d times, want 3", n)
	}
	if _, err := c.Sum(filepath.Dir(script)); err == nil {
		t.Error("hashed a directory")
	}
}
