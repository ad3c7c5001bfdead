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

// Only the .git paths of the project search count by presence alone: a
// Claude settings file the config names that happens to be called .git
// is a file of the config like any other, and an edit to it must not be
// answered by the config read before.
func TestStaleConfigFileNamedDotGit(t *testing.T) {
	var settings string
	f := start(t, "claude_settings:\n  - ./cs/.git\nhooks: {}\n", nil, func(o *Options) {
		noWatch(o)
		settings = filepath.Join(filepath.Dir(o.ConfigPath), "cs", ".git")
		if err := os.MkdirAll(filepath.Dir(settings), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(settings, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	changeThenRefresh(t, f, "a settings file named .git edited", func() {
		writeAtomic(t, settings, `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"/bin/false"}]}]}}`, 0o644)
	})
}
