//go:build unix

package server

import (
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
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

// managedChangeThenRefresh is changeThenRefresh for a server that reads
// the managed config managed beside the system's (the forwarded calls
// state it).
func managedChangeThenRefresh(t *testing.T, f *fixture, managed, what string, change func()) {
	t.Helper()
	call := func(what string) {
		t.Helper()
		r := f.dispatch("pre_tool_call"+forwarded+"&"+QueryManaged+"="+url.QueryEscape(managed), lsCall)
		if r.status == http.StatusOK && f.srv.Generation() == 1 {
			t.Fatalf("%s: a forwarded call answered by generation 1: %s", what, r.body)
		}
	}
	before := f.dispatch("pre_tool_call"+forwarded+"&"+QueryManaged+"="+url.QueryEscape(managed), lsCall)
	if before.status != http.StatusOK {
		t.Fatalf("before the change: %d %s", before.status, before.body)
	}
	change()
	call(what)
	f.srv.Refresh()
	call(what + ", then a refresh")
	f.waitGeneration(2)
}

// The loader holds a managed config's directories, up to /, to the
// managed rule (owned by the administrator, writable by nobody else):
// a directory made writable by others refuses the managed file from then
// on. Its mode is nothing the file's own identity shows, so a forwarded
// call must not be answered by the config read before.
func TestStaleManagedDirectoryMode(t *testing.T) {
	dir := filepath.Join(shortDir(t), "managed")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil { // whatever the umask
		t.Fatal(err)
	}
	managed := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(managed, []byte("hooks: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(hookconfig.ManagedConfigEnv, managed)
	f := start(t, "hooks: {}\n", nil, noWatch)
	managedChangeThenRefresh(t, f, managed, "the managed config's directory made writable by all", func() {
		if err := os.Chmod(dir, 0o777); err != nil {
			t.Fatal(err)
		}
	})
}

// A managed config's rule files are held to the same rule, their
// directories too: a rule file kept beside the managed config's folder
// (rules: [/opt/corp/team.yaml]), its folder made writable by all.
func TestStaleManagedRuleDirectoryMode(t *testing.T) {
	root := shortDir(t)
	dir, corp := filepath.Join(root, "managed"), filepath.Join(root, "corp")
	for _, d := range []string{dir, corp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(d, 0o755); err != nil { // whatever the umask
			t.Fatal(err)
		}
	}
	team := filepath.Join(corp, "team.yaml")
	managed := filepath.Join(dir, "config.yaml")
	for p, s := range map[string]string{team: "hooks: {}\n", managed: "rules: [" + team + "]\n"} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(hookconfig.ManagedConfigEnv, managed)
	f := start(t, "hooks: {}\n", nil, noWatch)
	managedChangeThenRefresh(t, f, managed, "a managed rule file's directory made writable by all", func() {
		if err := os.Chmod(corp, 0o777); err != nil {
			t.Fatal(err)
		}
	})
}

// A managed bundle's directories are held to the same rule.
func TestStaleManagedBundleDirectoryMode(t *testing.T) {
	dir := filepath.Join(shortDir(t), "managed")
	sub := filepath.Join(hookconfig.ManagedBundleDir(filepath.Join(dir, "config.yaml")), "corp", "files", "hooks")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	managed := filepath.Join(dir, "config.yaml")
	for _, p := range []string{managed, filepath.Join(filepath.Dir(sub), "config.yaml")} {
		if err := os.WriteFile(p, []byte("hooks: {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv(hookconfig.ManagedConfigEnv, managed)
	f := start(t, "hooks: {}\n", nil, noWatch)
	managedChangeThenRefresh(t, f, managed, "a managed bundle's folder made writable by all", func() {
		if err := os.Chmod(sub, 0o777); err != nil {
			t.Fatal(err)
		}
	})
}

// Attack: the project's .hermes folder itself moved out of the project
// and a symlink left in its place. The hooks file keeps its inode and
// change time, so its own identity shows nothing; the one-shot refuses a
// file reached through a link out of the project.
func TestStaleProjectFolderMovedOut(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, projectHere)
	changeThenRefresh(t, f, ".hermes moved out, a symlink left", func() {
		out := filepath.Join(f.home, "outdir")
		if err := os.Rename(filepath.Join(f.dir, ".hermes"), out); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(out, filepath.Join(f.dir, ".hermes")); err != nil {
			t.Fatal(err)
		}
	})
	if len(f.srv.cur.Load().cfg.Unloaded) == 0 {
		t.Fatalf("the moved project folder was loaded: %v", f.srv.cur.Load().cfg.ProjectFiles)
	}
}

// Attack: a repository's hooks file names hundreds of files, each down
// its own deep chain of folders. Every forwarded call stats each link
// entry, so they are bounded.
func TestProjectLinkEntriesBounded(t *testing.T) {
	root := filepath.Join(string(filepath.Separator), "p")
	var files []string
	for i := range 256 {
		deep := filepath.Join(root, strconv.Itoa(i))
		for range 200 {
			deep = filepath.Join(deep, "d")
		}
		files = append(files, filepath.Join(deep, "settings.json"))
	}
	hooks := filepath.Join(root, ".hermes", "hooks.yaml")
	got := projectLinkEntries(append(files, hooks))
	if len(got) > maxLinkEntries {
		t.Fatalf("%d link entries", len(got))
	}
	if !slices.Contains(got, linkMark+filepath.Join(root, ".hermes")) || !slices.Contains(got, linkMark+hooks) {
		t.Fatalf("the hooks file's own components are missing: %q", got[:4])
	}
}
