//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const denied = `"permissionDecision":"deny"`

// Attack: a repository's approved project hooks file is replaced by a
// symlink to an identical file outside it. The one-shot refuses every
// tool call from then on (a project hooks file must be the project's
// own); serve, which read the same bytes through the link, used to
// re-record the new identity on its next refresh and answer `ls` from its
// old config. Every forwarded `ls` must be denied, until and after serve
// has loaded what is there.
func TestHookStaleServeSymlinkedProjectFile(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	e.socketPath = filepath.Join(e.home, "hermes-hooks.sock")
	hooks := filepath.Join(e.dir, ".hermes", "hooks.yaml")
	if err := os.MkdirAll(filepath.Dir(hooks), 0o700); err != nil {
		t.Fatal(err)
	}
	replaceFile(t, hooks, staleGuard, 0o644)
	if out, errs, code := e.cli("", "approve", "--project", "--yes"); code != 0 {
		t.Fatalf("approve --project: %d %s %s", code, out, errs)
	}
	p := e.serve()
	if out, _ := e.hookCall("ls", false); strings.Contains(out, denied) {
		t.Fatalf("ls before: %q", out)
	}
	outside := filepath.Join(e.root, "outside.yaml")
	replaceFile(t, outside, staleGuard, 0o644)
	tmp := hooks + ".new"
	if err := os.Symlink(outside, tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, hooks); err != nil {
		t.Fatal(err)
	}
	if out, _ := e.hookCall("ls", true); !strings.Contains(out, denied) {
		t.Fatalf("one-shot: %q", out)
	}
	p.waitFor("serve to load the symlinked file", func() bool {
		if out, _ := e.hookCall("ls", false); !strings.Contains(out, denied) {
			t.Fatalf("through serve (generation %v): %q", p.generation(), out)
		}
		return p.generation() == 2
	})
	if out, _ := e.hookCall("ls", false); !strings.Contains(out, denied) {
		t.Fatalf("through serve after the load: %q", out)
	}
}

// The .git boundary removed below serve's directory: serve runs in sub,
// a repository of its own, and the guard is in the enclosing
// repository's .hermes. With sub/.git gone the one-shot finds it.
func TestHookStaleServeGitBoundaryRemoved(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	e.socketPath = filepath.Join(e.home, "hermes-hooks.sock")
	repo := e.dir
	e.dir = filepath.Join(repo, "sub")
	for _, d := range []string{".git", "sub/.git", ".hermes"} {
		if err := os.MkdirAll(filepath.Join(repo, d), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	replaceFile(t, filepath.Join(repo, ".hermes", "hooks.yaml"), staleGuard, 0o644)
	if out, errs, code := e.cli("", "approve", "--project", repo, "--yes"); code != 0 {
		t.Fatalf("approve --project: %d %s %s", code, out, errs)
	}
	p := e.serve()
	if out, _ := e.hookCall("rm -rf /", false); strings.Contains(out, denied) {
		t.Fatalf("before: %q", out)
	}
	if err := os.RemoveAll(filepath.Join(e.dir, ".git")); err != nil {
		t.Fatal(err)
	}
	if out, _ := e.hookCall("rm -rf /", true); out != staleDeny {
		t.Fatalf("one-shot: %q", out)
	}
	p.waitFor("serve to load the guard above", func() bool {
		if out, _ := e.hookCall("rm -rf /", false); out != staleDeny {
			t.Fatalf("through serve (generation %v): %q", p.generation(), out)
		}
		return p.generation() == 2
	})
}
