//go:build unix

package server

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// Changes the one-shot sees that the content of the files does not show:
// a symlink in place of a file or folder, a folder's entries, an execute
// bit, a .git boundary, a bundle folder. A forwarded call must never be
// answered from the config loaded before such a change (generation 1
// here): it is refused (409) until serve has loaded what is there.

const lsCall = `{"tool_name":"terminal","args":{"command":"ls"}}`

// notFromOld fails when a forwarded call is answered while the config in
// service is still the one of generation old.
func notFromOld(t *testing.T, f *fixture, old int64, what string) {
	t.Helper()
	r := f.dispatch("pre_tool_call"+forwarded, lsCall)
	if r.status == http.StatusOK && f.srv.Generation() == old {
		t.Fatalf("%s: a forwarded call answered by generation %d: %s", what, old, r.body)
	}
}

// changeThenRefresh makes a change, checks that a forwarded call is
// refused, then that a refresh does not clear the refusal by re-recording
// the new identities, and that serve loads generation 2.
func changeThenRefresh(t *testing.T, f *fixture, what string, change func()) {
	t.Helper()
	change()
	notFromOld(t, f, 1, what)
	f.srv.Refresh()
	notFromOld(t, f, 1, what+", then a refresh")
	f.waitGeneration(2)
}

// projectHere puts a project hooks file with the rm -rf rule in the
// fixture's directory (no repository: the one-shot searches it alone).
func projectHere(o *Options) {
	noWatch(o)
	if err := os.MkdirAll(filepath.Join(o.Cwd, ".hermes"), 0o700); err != nil {
		panic(err)
	}
	if err := os.WriteFile(filepath.Join(o.Cwd, ".hermes", "hooks.yaml"), []byte(rmrfRule), 0o644); err != nil {
		panic(err)
	}
	o.ProjectDir = o.Cwd
}

// Attack: the project hooks file replaced by a symlink to an identical
// file outside the project. The one-shot refuses it (and so every tool
// call); the content read through the link is the same.
func TestStaleSymlinkedProjectFile(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, projectHere)
	hooks := filepath.Join(f.dir, ".hermes", "hooks.yaml")
	changeThenRefresh(t, f, "hooks.yaml made a symlink", func() {
		outside := filepath.Join(f.home, "outside.yaml")
		writeAtomic(t, outside, rmrfRule, 0o644)
		tmp := hooks + ".new"
		if err := os.Symlink(outside, tmp); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, hooks); err != nil {
			t.Fatal(err)
		}
	})
	if len(f.srv.cur.Load().cfg.Unloaded) == 0 {
		t.Fatalf("the symlinked project file was loaded: %v", f.srv.cur.Load().cfg.ProjectFiles)
	}
}

// Attack: the .hermes folder replaced by a symlink to a copy outside.
func TestStaleSymlinkedProjectFolder(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, projectHere)
	changeThenRefresh(t, f, ".hermes made a symlink", func() {
		out := filepath.Join(f.home, "outdir")
		if err := os.Mkdir(out, 0o700); err != nil {
			t.Fatal(err)
		}
		writeAtomic(t, filepath.Join(out, "hooks.yaml"), rmrfRule, 0o644)
		if err := os.Rename(filepath.Join(f.dir, ".hermes"), filepath.Join(f.dir, ".hermes.old")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(out, filepath.Join(f.dir, ".hermes")); err != nil {
			t.Fatal(err)
		}
	})
	if len(f.srv.cur.Load().cfg.Unloaded) == 0 {
		t.Fatalf("the symlinked project folder was loaded: %v", f.srv.cur.Load().cfg.ProjectFiles)
	}
}

// clineDir starts a server whose config names an empty Cline hooks folder.
func clineDir(t *testing.T) (*fixture, string) {
	var dir string
	f := start(t, "hooks: {}\n", nil, func(o *Options) {
		noWatch(o)
		dir = filepath.Join(o.Cwd, "cline")
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(o.ConfigPath, []byte("cline_hooks: ["+dir+"]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	return f, dir
}

// An executable added to a Cline hooks folder: reading a folder fails the
// same way every time, so its content said nothing of its entries.
func TestStaleClineFolderEntryAdded(t *testing.T) {
	f, dir := clineDir(t)
	changeThenRefresh(t, f, "an executable added", func() {
		writeAtomic(t, filepath.Join(dir, "PreToolUse"), "#!/bin/sh\necho '{\"cancel\":true}'\n", 0o755)
	})
	if n := len(f.srv.cur.Load().cfg.Entries); n != 1 {
		t.Fatalf("entries after the load: %d", n)
	}
}

// An event file of a Cline folder made executable: the folder itself does
// not change, the file does.
func TestStaleClineFolderExecBit(t *testing.T) {
	f, dir := clineDir(t)
	hook := filepath.Join(dir, "PreToolUse")
	writeAtomic(t, hook, "#!/bin/sh\necho '{\"cancel\":true}'\n", 0o644)
	f.srv.Refresh()
	f.waitGeneration(2)
	waitFor(t, "the plain file looked at", func() bool {
		return f.dispatch("pre_tool_call"+forwarded, lsCall).status == http.StatusOK
	})
	gen := f.srv.Generation()
	if err := os.Chmod(hook, 0o755); err != nil {
		t.Fatal(err)
	}
	notFromOld(t, f, gen, "chmod +x")
	f.srv.Refresh()
	notFromOld(t, f, gen, "chmod +x, then a refresh")
	f.waitGeneration(gen + 1)
	if n := len(f.srv.cur.Load().cfg.Entries); n != 1 {
		t.Fatalf("entries after the load: %d", n)
	}
}

// The .git boundary removed below the server: serve runs in sub, its own
// repository, and the guard is in the enclosing repository's .hermes. With
// sub/.git gone the one-shot's search reaches it.
func TestStaleGitBoundaryRemoved(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, func(o *Options) {
		belowRepoRoot(t)(o)
		if err := os.Mkdir(filepath.Join(o.Cwd, ".git"), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(filepath.Dir(o.Cwd), ".hermes", "hooks.yaml"), []byte(rmrfRule), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	if d := decision(t, f.dispatch("pre_tool_call"+forwarded, rmrf)); d != "none" {
		t.Fatalf("before: %s", d)
	}
	if err := os.RemoveAll(filepath.Join(f.dir, "sub", ".git")); err != nil {
		t.Fatal(err)
	}
	// A caller naming its project: the project hooks it finds are not
	// those loaded.
	sub := filepath.Join(f.dir, "sub")
	// The project check itself compares with what was loaded, not with a
	// search of its own made now.
	if c := f.srv.projectConflict([]string{sub}); c == "" {
		t.Fatal("projectConflict: none with the boundary gone")
	}
	if r := f.dispatch("pre_tool_call"+forwarded+"&project="+sub, rmrf); r.status != http.StatusConflict {
		t.Fatalf("project named, boundary gone: %d %s", r.status, r.body)
	}
	notFromOld(t, f, 1, "boundary gone")
	f.srv.Refresh()
	notFromOld(t, f, 1, "boundary gone, then a refresh")
	f.waitGeneration(2)
	if pf := f.srv.cur.Load().cfg.ProjectFiles; len(pf) != 1 || pf[0] != filepath.Join(f.dir, ".hermes", "hooks.yaml") {
		t.Fatalf("project files loaded: %v", pf)
	}
}

// A bundle folder appears (copied by hand, not installed): the one-shot
// refuses it, and its bundles' index did not change.
func TestStaleBundleFolderAppears(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, noWatch)
	changeThenRefresh(t, f, "a bundle folder copied", func() {
		if err := os.MkdirAll(filepath.Join(f.home, "bundles", "copied", "files"), 0o700); err != nil {
			t.Fatal(err)
		}
	})
	if len(f.srv.cur.Load().cfg.Unloaded) == 0 {
		t.Fatal("the copied bundle was not refused")
	}
}

// A stat identity changed with no file event (a hard link made elsewhere
// changes the config's ctime): a forwarded call is refused, and the
// refusal starts a refresh of its own, so later calls are answered again
// without waiting for an unrelated event.
func TestStaleMismatchStartsARefresh(t *testing.T) {
	f := start(t, rmrfRule, nil, noWatch)
	if err := os.Link(f.config, filepath.Join(f.dir, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	if r := f.dispatch("pre_tool_call"+forwarded, rmrf); r.status != http.StatusConflict {
		t.Fatalf("after the link: %d %s", r.status, r.body)
	}
	waitFor(t, "a forwarded call answered again", func() bool {
		return decision(t, f.dispatch("pre_tool_call"+forwarded, rmrf)) == "block"
	})
	if g := f.srv.Generation(); g != 1 {
		t.Fatalf("generation %d: the same config was loaded again", g)
	}
}

// A guard changed by a copy that keeps size and times (cp -p, rsync -a, tar
// x, then a rename into place): the bytes differ, size and mtime do not.
// Only the inode and the ctime tell; the portable build (macOS, the BSDs)
// read neither once, and answered from the old config, without the guard.
func TestStaleReplacedKeepingSizeAndMtime(t *testing.T) {
	old := strings.Replace(rmrfRule, `rm\\s+-rf`, `xx\\s+-rf`, 1)
	if len(old) != len(rmrfRule) || old == rmrfRule {
		t.Fatal("the two configs must differ with the same size")
	}
	f := start(t, old, nil, noWatch)
	if d := decision(t, f.dispatch("pre_tool_call"+forwarded, rmrf)); d != "none" {
		t.Fatalf("before: %s", d)
	}
	fi, err := os.Stat(f.config)
	if err != nil {
		t.Fatal(err)
	}
	writeAtomic(t, f.config, rmrfRule, fi.Mode().Perm())
	if err := os.Chtimes(f.config, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if r := f.dispatch("pre_tool_call"+forwarded, rmrf); r.status != http.StatusConflict {
		t.Fatalf("the config replaced, same size and mtime: %d %s", r.status, r.body)
	}
	f.srv.Refresh()
	f.waitGeneration(2)
	if d := decision(t, f.dispatch("pre_tool_call"+forwarded, rmrf)); d != "block" {
		t.Fatalf("after the reload: %s", d)
	}
}

// The recorded view must be of the config that answers: a view of another
// generation (a reload between the check and the dispatch) is a 409.
func TestStaleViewOfAnotherGeneration(t *testing.T) {
	f := start(t, rmrfRule, nil, noWatch)
	d := f.srv.disk.Load()
	f.srv.disk.Store(&diskView{gen: d.gen + 1, files: d.files, ids: d.ids})
	if r := f.dispatch("pre_tool_call"+forwarded, rmrf); r.status != http.StatusConflict {
		t.Fatalf("a view of generation %d answered for generation %d: %d %s", d.gen+1, f.srv.Generation(), r.status, r.body)
	}
	if d := decision(t, f.dispatch("pre_tool_call", rmrf)); d != "block" {
		t.Fatalf("no inputs: %s", d)
	}
}

// Past the settle bound a reload still must not apply a config written to
// while it was read: a caller without inputs keeps the last good config
// (a forwarded call is refused meanwhile), and the file as it ends up is
// loaded next.
func TestSettleLimitRejectsAWriteDuringTheRead(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, func(o *Options) {
		o.Debounce, o.SettleLimit = time.Hour, time.Nanosecond
		o.Settle = 20 * time.Millisecond
	})
	two := rmrfRule + "    - matcher: terminal\n      rule: 'args.command matches \"ls\"'\n      decision: block\n      message: no ls\n"
	var loads atomic.Int32
	f.srv.mu.Lock()
	realLoad := f.srv.load
	f.srv.load = func(path string, o hookconfig.LoadOptions) (*hookconfig.Config, error) {
		cfg, err := realLoad(path, o)
		if loads.Add(1) == 1 {
			// A writer that lands while the first reload reads.
			if err := os.WriteFile(f.config, []byte(two), 0o644); err != nil {
				t.Error(err)
			}
		}
		return cfg, err
	}
	f.srv.mu.Unlock()
	f.writeConfig(rmrfRule)
	f.srv.Refresh()
	f.waitGeneration(2)
	if n := len(f.srv.cur.Load().cfg.Entries); n != 2 {
		t.Fatalf("generation 2 has %d entries: the config read during a write was applied", n)
	}
}

// Outside a repository the one-shot searches the project directory alone
// (hookconfig.ProjectSearchPaths): a hooks file in a parent directory is
// none of its business, and an edit there must not refuse forwarded
// calls.
func TestStaleParentHooksOutsideARepository(t *testing.T) {
	var parent string
	f := start(t, "hooks: {}\n", nil, func(o *Options) {
		noWatch(o)
		o.ProjectDir = o.Cwd
		parent = filepath.Join(filepath.Dir(o.Cwd), ".hermes", "hooks.yaml")
		if err := os.MkdirAll(filepath.Dir(parent), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(parent, []byte("hooks: {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	writeAtomic(t, parent, rmrfRule, 0o644)
	if r := f.dispatch("pre_tool_call"+forwarded, rmrf); r.status != http.StatusOK {
		t.Fatalf("a parent's hooks file edited outside a repository: %d %s", r.status, r.body)
	}
}

// Only whether a .git is there decides the project search: git's own
// work inside it (a lock file made and removed by every commit) must
// neither refuse forwarded calls nor reload.
func TestStaleGitActivityIsNoChange(t *testing.T) {
	f := start(t, "hooks: {}\n", nil, belowRepoRoot(t))
	lock := filepath.Join(f.dir, ".git", "index.lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := f.dispatch("pre_tool_call"+forwarded, rmrf); r.status != http.StatusOK {
		t.Fatalf("a lock file in .git: %d %s", r.status, r.body)
	}
	f.srv.Refresh()
	if g := f.srv.Generation(); g != 1 {
		t.Fatalf("a lock file in .git reloaded the config: generation %d", g)
	}
}
