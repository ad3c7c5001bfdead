package repoid

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestMainTop: the main checkout of a linked worktree is found by git's
// layout alone (its .git file names COMMON/worktrees/NAME, and the main
// checkout is COMMON's parent), from the worktree's top or any folder in
// it; a main checkout is its own; anything else (a submodule's .git file,
// a .git file of another layout, no .git) has none.
func TestMainTop(t *testing.T) {
	base := t.TempDir()
	mk := func(p string) string {
		p = filepath.Join(base, filepath.FromSlash(p))
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write := func(p, data string) {
		p = filepath.Join(base, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	main := mk("main")
	mk("main/.git/worktrees/wt")
	mk("main/sub/dir")
	write("wt/.git", "gitdir: "+filepath.Join(main, ".git", "worktrees", "wt")+"\n")
	mk("wt/a/b")
	write("rel/.git", "gitdir: ../main/.git/worktrees/wt\n")
	write("sm/.git", "gitdir: ../main/.git/modules/sm\n")
	write("junk/.git", "not a git file\n")
	write("empty/.git", "gitdir:   \n")
	// Forged files Codex reads as naming no worktree (it reads the whole
	// file, keeps a byte order mark, refuses invalid UTF-8): none here
	// either, or doctor would call trusted what Codex does not.
	good := "gitdir: " + filepath.Join(main, ".git", "worktrees", "wt")
	write("twolines/.git", good+"\nz/y\n")
	write("bom/.git", "\ufeff"+good+"\n")
	write("badutf8/.git", good+"\n\xff\n")
	write("spaced/.git", "\n  "+good+"  \n\n") // Codex trims the whole file
	mk("none")
	// A .git entry nearer than a good one decides, as it does for the agent.
	write("wt/nested/.git", "junk\n")
	for _, c := range []struct{ dir, want string }{
		{"main", main},
		{"main/sub/dir", main},
		{"wt", main},
		{"wt/a/b", main},
		{"rel", main},
		{"sm", ""},
		{"junk", ""},
		{"empty", ""},
		{"wt/nested", ""},
		{"twolines", ""},
		{"bom", ""},
		{"badutf8", ""},
		{"spaced", main},
	} {
		got, ok := MainTop(filepath.Join(base, filepath.FromSlash(c.dir)))
		if c.want == "" {
			if ok {
				t.Errorf("MainTop(%s) = %q, want none", c.dir, got)
			}
			continue
		}
		if !ok || got != c.want {
			t.Errorf("MainTop(%s) = %q, %v, want %q", c.dir, got, ok, c.want)
		}
	}
	if got, ok := MainTop(filepath.Join(base, "none")); ok && strings.HasPrefix(got, base) {
		t.Errorf("MainTop(none) = %q inside the test's folder, want none", got)
	}
}

// TestMainTopGit: a real `git worktree add`.
func TestMainTopGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	base := t.TempDir()
	main, wt := filepath.Join(base, "main"), filepath.Join(base, "wt")
	for _, args := range [][]string{
		{"init", "-q", main},
		{"-C", main, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "x"},
		{"-C", main, "worktree", "add", "-q", wt},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	got, ok := MainTop(wt)
	want := main
	if r, err := filepath.EvalSymlinks(main); err == nil && runtime.GOOS == "darwin" {
		want = r // git writes the resolved path on macOS's /var → /private/var
	}
	if !ok || got != want {
		t.Errorf("MainTop(worktree) = %q, %v, want %q", got, ok, want)
	}
}

// TestMainTopHuge: a huge .git file is read only in part (and names no
// worktree then).
func TestMainTopHuge(t *testing.T) {
	base := t.TempDir()
	huge := filepath.Join(base, "huge")
	if err := os.MkdirAll(huge, 0o755); err != nil {
		t.Fatal(err)
	}
	data := "gitdir: " + strings.Repeat("x", 2*maxGitFile) + "\n"
	if err := os.WriteFile(filepath.Join(huge, ".git"), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, ok := MainTop(huge); ok {
		t.Errorf("MainTop(huge) = %q, want none", got)
	}
}
