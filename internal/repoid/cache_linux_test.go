//go:build linux && !hermes_portable

package repoid

import (
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
)

// Where stat keys vouch (Linux), an answer whose files settled is reused:
// serve reads git's files again only when one of them changes.
func TestCacheReusesASettledAnswer(t *testing.T) {
	root := t.TempDir()
	a := filepath.Join(root, "a")
	cfg := filepath.Join(a, ".git", "config")
	write(t, cfg, "[remote \"origin\"]\nurl = https://h.example/o/aaa.git\n")
	// The coarse clock passes the files' change times within a tick or
	// two (no event says when: spin); the bound is only against a hang.
	for deadline := time.Now().Add(10 * time.Second); ; {
		if stampOf(cfg).vouches() && stampOf(filepath.Join(a, ".git")).vouches() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the config's stat key never vouched")
		}
		runtime.Gosched()
	}
	reads := 0
	testAfterRead = func() { reads++ }
	t.Cleanup(func() { testAfterRead = nil })
	var c Cache
	for range 3 {
		if r, _ := c.Find(a); !slices.Contains(r.IDs, "url:h.example/o/aaa") {
			t.Fatalf("read: %q", r.IDs)
		}
	}
	if reads != 1 {
		t.Fatalf("git's files read %d times for three Finds, want once", reads)
	}
}
