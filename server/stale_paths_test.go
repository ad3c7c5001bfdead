//go:build unix

package server

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// watchedDirs are the directories the server logged it watches.
func watchedDirs(f *fixture) map[string]bool {
	out := map[string]bool{}
	for _, line := range strings.Split(f.logs.String(), "\n") {
		if !strings.Contains(line, `msg="watching directory"`) {
			continue
		}
		_, dir, ok := strings.Cut(line, " dir=")
		if !ok {
			continue
		}
		dir, _, _ = strings.Cut(dir, " ")
		out[strings.Trim(dir, `"`)] = true
	}
	return out
}

// Outside a repository the project search asks whether a .git is at
// every level up to / — but only whether it is there, which the check of
// each forwarded call compares. Watching / and /tmp for it made serve
// read every event of a busy /tmp (a process making and removing files
// there cost it 40% of a core, with watcher overflows).
func TestNoWatchOnParentsOutsideARepository(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, func(o *Options) { o.ProjectDir = o.Cwd })
	watched := watchedDirs(f)
	if len(watched) == 0 {
		t.Fatalf("no watched directory logged:\n%s", f.logs.String())
	}
	for d := filepath.Dir(f.dir); ; d = filepath.Dir(d) {
		if watched[d] {
			t.Errorf("a parent of the project outside a repository is watched: %s", d)
		}
		if filepath.Dir(d) == d {
			break
		}
	}
	if _, err := os.Stat(filepath.Join(f.dir, ".git")); err == nil {
		t.Fatal("the fixture is inside a repository")
	}
}
