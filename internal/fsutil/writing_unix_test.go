//go:build unix

package fsutil

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The change time is every Unix's, macOS' and the BSDs' too (the portable
// build): an mtime set back by hand, as a copy that keeps times sets it,
// leaves it at the moment of the change. serve's stat identity and the
// one-shot's "written to while it read" rest on it; with the mtime
// standing for it a chmod or a same-size replacement went unseen.
func TestFileTimesChangeTimeIsNotTheMtime(t *testing.T) {
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte("hooks: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	past := time.Now().Add(-time.Hour).Truncate(time.Second)
	if err := os.Chtimes(p, past, past); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	mt, ct := FileTimes(fi)
	if !mt.Equal(past) {
		t.Fatalf("mtime %v, want the one set, %v", mt, past)
	}
	// The ctime is when Chtimes ran: well after past (an hour, less any
	// coarse clock).
	if ct.Sub(past) < 30*time.Minute {
		t.Fatalf("ctime %v: the mtime set back (%v) stands for it", ct, past)
	}
	if lw := LastWrite(fi, time.Now().Add(time.Minute)); !lw.Equal(ct) {
		t.Fatalf("LastWrite %v, want the ctime %v", lw, ct)
	}
}
