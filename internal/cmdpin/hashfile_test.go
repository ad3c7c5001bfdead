package cmdpin

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHashCacheSharedAcrossProcesses: a large binary hashed by one process
// (a fresh Cache is a new process) is not hashed again by the next
// while its stat identity holds; an edit that restores size and mtime is
// still seen, because ctime moved — and the cache then gives the new
// digest, never the old one.
func TestHashCacheSharedAcrossProcesses(t *testing.T) {
	dir := cachingDir(t)
	bin := bigELF(t, dir)
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	settle(t, bin)
	shared := filepath.Join(dir, CacheFileName)
	target := &Target{Path: bin, Files: []string{bin}, Direct: true}
	pin := func() (string, int64) {
		c := &Cache{File: shared} // a new process
		p := Pin(target, c)
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

// TestReadHashFileRoundTripAndBrokenEntries: readHashFile reads back what
// saveShared writes, drops only the broken entries, and refuses another
// version.
func TestReadHashFileRoundTripAndBrokenEntries(t *testing.T) {
	dir := t.TempDir()
	good := hashEntry{Dev: 1<<63 + 5, Ino: 42, Size: 2 << 20, MtimeNS: 1764000000123456789, CtimeNS: -1, Mode: 0o755, SHA256: strings.Repeat("ab", 32)}
	data, err := json.MarshalIndent(hashFile{Version: hashFileVersion, Files: map[string]hashEntry{"/bin/x": good}}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "h.json")
	write := func(s string) {
		t.Helper()
		if err := os.WriteFile(p, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	write(string(data))
	if got := readHashFile(p); len(got) != 1 || got["/bin/x"] != good {
		t.Fatalf("round trip: got %+v, want %+v", got, good)
	}
	for name, bad := range map[string]string{
		"a string size":   `{"dev":1,"ino":2,"size":"3","mtime_ns":4,"ctime_ns":5,"mode":6,"sha256":"ab"}`,
		"a missing field": `{"dev":1,"ino":2,"size":3,"mtime_ns":4,"mode":6,"sha256":"ab"}`,
		"a negative ino":  `{"dev":1,"ino":-2,"size":3,"mtime_ns":4,"ctime_ns":5,"mode":6,"sha256":"ab"}`,
		"no digest":       `{"dev":1,"ino":2,"size":3,"mtime_ns":4,"ctime_ns":5,"mode":6}`,
		"not an object":   `[]`,
	} {
		write(`{"version": 2, "files": {"/bin/x": ` + string(mustJSON(t, good)) + `, "/bin/bad": ` + bad + `}}`)
		if got := readHashFile(p); len(got) != 1 || got["/bin/x"] != good {
			t.Errorf("%s: got %+v, want only the good entry", name, got)
		}
	}
	write(`{"version": 1, "files": {"/bin/x": ` + string(mustJSON(t, good)) + `}}`)
	if got := readHashFile(p); got != nil {
		t.Errorf("version 1 read as %+v", got)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
