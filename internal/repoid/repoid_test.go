package repoid

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestNormalizeURL(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"git@github.com:owner/repo.git", "github.com/owner/repo"},
		{"github.com:owner/repo", "github.com/owner/repo"},
		{"https://github.com/owner/repo.git", "github.com/owner/repo"},
		{"https://github.com/owner/repo", "github.com/owner/repo"},
		{"https://github.com/owner/repo/", "github.com/owner/repo"},
		{"https://github.com/owner/repo.git/", "github.com/owner/repo"},
		{"https://user:s3cret@GitHub.com/owner/repo.git", "github.com/owner/repo"},
		{"https://token@github.com:443/owner/repo", "github.com/owner/repo"},
		{"ssh://git@github.com/owner/repo.git", "github.com/owner/repo"},
		{"ssh://git@github.com:22/owner/repo.git", "github.com/owner/repo"},
		{"ssh://git@example.com:2222/owner/repo.git", "example.com:2222/owner/repo"},
		{"git://example.com/owner/repo", "example.com/owner/repo"},
		{"http://example.com:80/a/b/c.git", "example.com/a/b/c"},
		{"git@[::1]:owner/repo.git", "::1/owner/repo"},
		{"ssh://user@host/~/repo.git", "host/repo"},
		{"  https://github.com/owner/repo.git  ", "github.com/owner/repo"},
		// Paths are kept as written: hosts differ in case rules.
		{"https://github.com/Owner/Repo", "github.com/Owner/Repo"},
		// Not remote addresses.
		{"/srv/git/repo.git", ""},
		{"../repo", ""},
		{"./a:b", ""},
		{"file:///srv/git/repo.git", ""},
		{"", ""},
		{"https://", ""},
		{"git@github.com:", ""},
	} {
		if got := NormalizeURL(c.in); got != c.want {
			t.Errorf("NormalizeURL(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestRemotes(t *testing.T) {
	for _, c := range []struct {
		name, config string
		want         []string
	}{
		{"plain", "[core]\n\tbare = false\n[remote \"origin\"]\n\turl = git@github.com:o/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n", []string{"git@github.com:o/r.git"}},
		{"two remotes", "[remote \"origin\"]\nurl = a\n[branch \"main\"]\nurl = not-a-remote\n[remote \"up\"]\nURL = b\n", []string{"a", "b"}},
		{"old form", "[remote.origin]\n url=x\n", []string{"x"}},
		{"no subsection", "[remote]\nurl = x\n", nil},
		{"case", "[Remote \"o\"]\n  Url = X\n", []string{"X"}},
		{"quoted with comment", "[remote \"o\"]\nurl = \"a b\" # comment\n", []string{"a b"}},
		{"inline comment", "[remote \"o\"]\nurl = https://h/o/r ; c\n", []string{"https://h/o/r"}},
		{"escaped quote in subsection", "[remote \"a\\\"]b\"]\nurl = x\n", []string{"x"}},
		{"variable on header line", "[remote \"o\"] url = x\n", []string{"x"}},
		{"continuation", "[remote \"o\"]\nurl = https://h/\\\no/r\n", []string{"https://h/o/r"}},
		{"comments", "# [remote \"o\"]\n; url = y\n[remote \"o\"]\n#url = z\n", nil},
		{"crlf and bom", "\ufeff[remote \"o\"]\r\nurl = x\r\n", []string{"x"}},
		{"escapes", "[remote \"o\"]\nurl = a\\\\b\\tc\n", []string{"a\\b\tc"}},
		{"unterminated header", "[remote \"o\"\nurl = x\n", nil},
		{"bare name", "[remote \"o\"]\nurl\n", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := Remotes([]byte(c.config)); !slices.Equal(got, c.want) {
				t.Errorf("Remotes = %q, want %q", got, c.want)
			}
		})
	}
}

func TestParseGitFile(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string
		ok   bool
	}{
		{"gitdir: /a/b/.git/worktrees/x\n", "/a/b/.git/worktrees/x", true},
		{"gitdir: ../.git/modules/m", "../.git/modules/m", true},
		{"gitdir:   /x  \r\nmore\n", "/x", true},
		{"\ufeffgitdir: /x\n", "/x", true},
		{"gitdir:\n", "", false},
		{"GITDIR: /x\n", "", false},
		{"not a git file", "", false},
		{"gitdir: /a\x00b", "", false},
	} {
		got, ok := ParseGitFile([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("ParseGitFile(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// write creates path (and its directories) with content.
func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestFind lays out git's files as git writes them for a repository, a
// worktree of it, a local clone of it and a clone of a hosted repository,
// and checks who shares an identity with whom.
func TestFind(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a := filepath.Join(root, "a")
	write(t, filepath.Join(a, ".git", "HEAD"), "ref: refs/heads/main\n")
	write(t, filepath.Join(a, ".git", "config"), "[core]\n\tbare = false\n")
	// A worktree: .git file → gitdir → commondir (relative, as git writes).
	wt := filepath.Join(root, "wt")
	write(t, filepath.Join(wt, ".git"), "gitdir: "+filepath.Join(a, ".git", "worktrees", "wt")+"\n")
	write(t, filepath.Join(a, ".git", "worktrees", "wt", "commondir"), "../..\n")
	// A local clone: origin is A's path.
	b := filepath.Join(root, "b")
	// As git writes a local path there: with forward slashes (a backslash
	// is an escape in git's config, also on Windows).
	write(t, filepath.Join(b, ".git", "config"), "[remote \"origin\"]\n\turl = "+filepath.ToSlash(a)+"\n")
	// Clones of a hosted repository, spelt two ways.
	h1 := filepath.Join(root, "h1")
	write(t, filepath.Join(h1, ".git", "config"), "[remote \"origin\"]\n\turl = git@github.com:o/r.git\n")
	h2 := filepath.Join(root, "h2")
	write(t, filepath.Join(h2, ".git", "config"), "[remote \"origin\"]\n\turl = https://x:tok@github.com/o/r\n")
	// An unrelated repository, and a directory in none.
	c := filepath.Join(root, "c")
	write(t, filepath.Join(c, ".git", "config"), "")
	none := filepath.Join(root, "none")
	write(t, filepath.Join(none, "f"), "")

	find := func(dir string) Repo {
		t.Helper()
		r, ok := Find(dir)
		if !ok {
			t.Fatalf("Find(%s): no repository", dir)
		}
		return r
	}
	ra, rwt, rb := find(a), find(filepath.Join(wt)), find(b)
	if rwt.Top != wt || rwt.CommonDir != filepath.Join(a, ".git") {
		t.Errorf("worktree: top %s common %s", rwt.Top, rwt.CommonDir)
	}
	if !ra.Shares(rwt.IDs) || !ra.Shares(rb.IDs) || !rb.Shares(ra.IDs) {
		t.Errorf("a %q, worktree %q, clone %q: want shared IDs", ra.IDs, rwt.IDs, rb.IDs)
	}
	rh1, rh2, rc := find(h1), find(h2), find(c)
	if !rh1.Shares(rh2.IDs) || !slices.Contains(rh1.IDs, "url:github.com/o/r") {
		t.Errorf("hosted clones %q and %q: want a shared url ID", rh1.IDs, rh2.IDs)
	}
	if rc.Shares(ra.IDs) || rc.Shares(rh1.IDs) || rh1.Shares(ra.IDs) {
		t.Errorf("unrelated repositories share an ID: %q %q %q", rc.IDs, ra.IDs, rh1.IDs)
	}
	for _, id := range rh2.IDs {
		if strings.Contains(id, "tok") {
			t.Errorf("credentials kept in ID %q", id)
		}
	}
	// A subdirectory belongs to the repository above it.
	write(t, filepath.Join(a, "sub", "x"), "")
	if r := find(filepath.Join(a, "sub")); r.Top != a {
		t.Errorf("subdirectory: top %s, want %s", r.Top, a)
	}
	if r, ok := Find(none); ok && r.Top == none {
		t.Errorf("a directory without .git is a repository: %+v", r)
	}
}

func FuzzGitFiles(f *testing.F) {
	f.Add([]byte("[remote \"origin\"]\n\turl = git@github.com:o/r.git\n"))
	f.Add([]byte("gitdir: ../.git/worktrees/x\n"))
	f.Add([]byte("[remote.o] url = \"a\\\"b\" ; c\\\n d\n"))
	f.Add([]byte("[remote \"a\\\"]b\"]url=x"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, u := range Remotes(data) {
			if n := NormalizeURL(u); n != "" && (strings.Contains(n, "@") && !strings.Contains(u, "@")) {
				t.Fatalf("NormalizeURL(%q) = %q invents a user", u, n)
			}
		}
		if p, ok := ParseGitFile(data); ok && (p == "" || strings.ContainsAny(p, "\n\x00")) {
			t.Fatalf("ParseGitFile = %q", p)
		}
	})
}

// TestCacheSeesChanges: a cached identity is read again when the config
// it came from changes (a remote added), and when a .git appears.
func TestCacheSeesChanges(t *testing.T) {
	root := t.TempDir()
	a := filepath.Join(root, "a")
	write(t, filepath.Join(a, "x"), "")
	var c Cache
	if r, ok := c.Find(a); ok && r.Top == a {
		t.Fatalf("no .git yet, got %+v", r)
	}
	write(t, filepath.Join(a, ".git", "config"), "")
	r, ok := c.Find(a)
	if !ok || r.Top != a || len(r.IDs) != 1 {
		t.Fatalf("after git init: %+v %v", r, ok)
	}
	write(t, filepath.Join(a, ".git", "config"), "[remote \"origin\"]\nurl = https://h.example/o/r.git\n")
	if r, _ := c.Find(a); !slices.Contains(r.IDs, "url:h.example/o/r") {
		t.Fatalf("after a remote was added: %q", r.IDs)
	}
}

// A config rewritten in place to the same size with its mtime set back
// (touch -r) is still seen: ctime moves with any write and no user can set
// it back, and a file renamed over it has another inode. serve's cache
// kept the old remote, and with it the old identity's approvals, for a
// repository that now names another.
func TestCacheSeesSameSizeEditWithMtimeRestored(t *testing.T) {
	root := t.TempDir()
	a := filepath.Join(root, "a")
	cfg := filepath.Join(a, ".git", "config")
	write(t, cfg, "[remote \"origin\"]\nurl = https://h.example/o/aaa.git\n")
	var c Cache
	if r, _ := c.Find(a); !slices.Contains(r.IDs, "url:h.example/o/aaa") {
		t.Fatalf("first read: %q", r.IDs)
	}
	fi, err := os.Stat(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, how := range []string{"in place", "renamed over"} {
		want := map[string]string{"in place": "bbb", "renamed over": "ccc"}[how]
		text := "[remote \"origin\"]\nurl = https://h.example/o/" + want + ".git\n"
		if how == "in place" {
			if err := os.WriteFile(cfg, []byte(text), fi.Mode()); err != nil {
				t.Fatal(err)
			}
		} else {
			tmp := cfg + ".new"
			write(t, tmp, text)
			if err := os.Rename(tmp, cfg); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Chtimes(cfg, fi.ModTime(), fi.ModTime()); err != nil {
			t.Fatal(err)
		}
		if r, _ := c.Find(a); !slices.Contains(r.IDs, "url:h.example/o/"+want) {
			t.Fatalf("config edited %s to the same size, mtime set back: still %q", how, r.IDs)
		}
	}
}

// A config that changes while Find reads it is read again next time: the
// identity a cached answer is checked against is the one from before the
// read. Stamped after the read, it was the new file's, and serve kept the
// remote of a config that no longer said it, while the one-shot read the
// new one.
func TestCacheSeesAChangeDuringTheRead(t *testing.T) {
	root := t.TempDir()
	a := filepath.Join(root, "a")
	cfg := filepath.Join(a, ".git", "config")
	write(t, cfg, "[remote \"origin\"]\nurl = https://h.example/o/aaa.git\n")
	var c Cache
	testAfterRead = func() {
		testAfterRead = nil
		write(t, cfg, "[remote \"origin\"]\nurl = https://h.example/o/bbbb.git\n")
	}
	t.Cleanup(func() { testAfterRead = nil })
	if r, _ := c.Find(a); !slices.Contains(r.IDs, "url:h.example/o/aaa") {
		t.Fatalf("first read: %q", r.IDs)
	}
	if r, _ := c.Find(a); !slices.Contains(r.IDs, "url:h.example/o/bbbb") {
		t.Fatalf("config changed while it was read: still %q", r.IDs)
	}
}
