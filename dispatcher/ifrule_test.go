//go:build !windows

package dispatcher

import (
	"os"
	"path/filepath"
	"testing"
)

// physicalPath follows links one component at a time, as the kernel opens
// a path: relative and absolute targets, ".." after a link taken from where
// the link led, dangling links and missing tails kept as a Write would
// create them, loops refused.
func TestPhysicalPath(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	mk := func(p string) {
		if err := os.MkdirAll(filepath.Join(base, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		if err := os.Symlink(target, filepath.Join(base, p)); err != nil {
			t.Fatal(err)
		}
	}
	mk("real/secrets")
	mk("proj")
	if err := os.WriteFile(filepath.Join(base, "real/secrets/key"), []byte("k"), 0o600); err != nil {
		t.Fatal(err)
	}
	link("../real", "proj/rel")
	link(filepath.Join(base, "real/secrets/key"), "proj/abs")
	link(filepath.Join(base, "real/secrets/new"), "proj/dangling")
	link("loop2", "proj/loop1")
	link("loop1", "proj/loop2")
	link("rel/secrets", "proj/chain")
	for _, c := range []struct{ in, want string }{
		{"proj/rel/secrets/key", "real/secrets/key"},
		{"proj/abs", "real/secrets/key"},
		{"proj/chain/key", "real/secrets/key"},
		{"proj/dangling", "real/secrets/new"},
		{"proj/rel/../proj", "proj"}, // lexically proj/proj
		{"proj/missing/x", "proj/missing/x"},
		{"proj/./rel//secrets/", "real/secrets"},
		{"real/secrets/key", "real/secrets/key"},
	} {
		got, err := physicalPath(base + "/" + c.in) // not Join: it would clean rel/.. away
		if want := filepath.Join(base, c.want); err != nil || got != want {
			t.Errorf("physicalPath(%s) = %q, %v; want %q", c.in, got, err, want)
		}
	}
	for _, bad := range []string{filepath.Join(base, "proj/loop1/x"), "relative/path", filepath.Join(base, "real/secrets/key/x")} {
		if got, err := physicalPath(bad); err == nil {
			t.Errorf("physicalPath(%s) = %q, want an error", bad, got)
		}
	}
}

// A path rule runs the hook for a link to the path it protects, and for a
// path it cannot resolve; a plain file elsewhere still skips it.
func TestIfRuleFollowsSymlinks(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	ran := filepath.Join(dir, "ran")
	guard := script(t, dir, "guard.sh", `echo x >> `+ran+`; echo "secret" >&2; exit 2`)
	for _, p := range []string{"proj/secrets", "proj/docs", "elsewhere"} {
		if err := os.MkdirAll(filepath.Join(dir, p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("../secrets/key", filepath.Join(dir, "proj/docs/notes.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "proj"), filepath.Join(dir, "elsewhere/proj")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("loop", filepath.Join(dir, "proj/docs/loop")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "proj/secrets"), filepath.Join(dir, "proj/docs/up")); err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join(dir, "proj")
	d := settingsDispatcher(t, `{"hooks":{"PreToolUse":[{"matcher":"Read","hooks":[{"type":"command","command":"`+guard+`","if":"Read(./secrets/**)"}]}]}}`, Options{Cwd: proj})
	read := func(p, cwd string) bool {
		o := dispatch(t, d, "PreToolUse", map[string]any{"tool_name": "Read", "tool_input": map[string]any{"file_path": p}, "cwd": cwd})
		return o.Blocked()
	}
	for _, c := range []struct {
		file, cwd string
		want      bool
	}{
		{"secrets/key", proj, true},
		{"docs/notes.md", proj, true},
		{filepath.Join(dir, "proj/docs/notes.md"), proj, true},
		{"proj/secrets/key", filepath.Join(dir, "elsewhere"), false}, // not under this cwd's ./secrets
		{"secrets/key", filepath.Join(dir, "elsewhere/proj"), true},
		{filepath.Join(proj, "secrets/key"), filepath.Join(dir, "elsewhere/proj"), true}, // the cwd is a link to proj
		{"docs/loop", proj, true},                                                        // cannot be resolved
		// ".." after a link is taken from where the link led: lexically
		// this is proj/docs/secrets/key, physically proj/secrets/key.
		{"docs/up/../secrets/key", proj, true},
		{"docs/readme.md", proj, false},
	} {
		if got := read(c.file, c.cwd); got != c.want {
			t.Errorf("Read %s in %s: blocked = %v, want %v", c.file, c.cwd, got, c.want)
		}
	}
}
