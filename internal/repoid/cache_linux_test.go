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
	settle(t, cfg, filepath.Join(a, ".git"))
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

// settle waits until each path's stat key vouches (Cache keeps an answer
// only then). The coarse clock passes the files' change times within a
// tick or two (no event says when: spin); the bound is only against a hang.
func settle(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		for deadline := time.Now().Add(10 * time.Second); !stampOf(p).vouches(); {
			if time.Now().After(deadline) {
				t.Fatalf("%s: its stat key never vouched", p)
			}
			runtime.Gosched()
		}
	}
}

// A remote that is a path on this machine is that repository when there
// is one there (its git directory), else the path: a repository made at
// the path later is seen by the cache too. Its files were not watched, and
// serve kept "path:" while the one-shot said "git:" (another set of
// identities, and of the approvals given under them).
func TestCacheSeesALocalRemoteAppear(t *testing.T) {
	root := t.TempDir()
	a := filepath.Join(root, "a")
	up := filepath.Join(root, "up.git")
	write(t, filepath.Join(a, ".git", "config"), "[remote \"origin\"]\nurl = "+up+"\n")
	settle(t, filepath.Join(a, ".git"), filepath.Join(a, ".git", "config"))
	var c Cache
	if r, _ := c.Find(a); !slices.Contains(r.IDs, "path:"+up) {
		t.Fatalf("no repository at the remote's path yet: %q", r.IDs)
	}
	write(t, filepath.Join(up, "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(up, "objects", "x"), "")
	write(t, filepath.Join(up, "refs", "x"), "")
	want, _ := Find(a)
	if r, _ := c.Find(a); !slices.Equal(r.IDs, want.IDs) || slices.Contains(r.IDs, "path:"+up) {
		t.Fatalf("a bare repository made at the remote's path: cache %q, Find %q", r.IDs, want.IDs)
	}
}
