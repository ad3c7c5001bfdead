package repoid

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// git runs git in dir for a test, with no user or system config.
func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+dir, "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@x", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@x")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// TestTracked reads real indexes of every format version git writes: the
// committed file is tracked, a file beside it is not, and so is a file
// added with intent-to-add (version 3's extended flags).
func TestTracked(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	for _, version := range []string{"2", "3", "4"} {
		t.Run("v"+version, func(t *testing.T) {
			dir := t.TempDir()
			git(t, dir, "init", "-q", ".")
			files := map[string]string{
				".claude/settings.json": "{}", ".claude/settings.local.json": "{}",
				"a/" + strings.Repeat("long-dir/", 30) + "hooks.json": "{}", "README": "r", ".gemini/settings.json": "{}",
			}
			for name, body := range files {
				p := filepath.Join(dir, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			git(t, dir, "add", ".claude/settings.json", "README", "a")
			git(t, dir, "add", "-N", ".gemini/settings.json")
			git(t, dir, "commit", "-q", "-m", "c")
			git(t, dir, "update-index", "--index-version", version)
			for name, want := range map[string]bool{
				".claude/settings.json": true, "README": true, "a/" + strings.Repeat("long-dir/", 30) + "hooks.json": true,
				".gemini/settings.json": true, ".claude/settings.local.json": false, ".codex/hooks.json": false,
			} {
				got, err := Tracked(filepath.Join(dir, filepath.FromSlash(name)))
				if err != nil || got != want {
					t.Errorf("Tracked(%s) = %v, %v; want %v", name, got, err, want)
				}
			}
		})
	}
}

// TestTrackedOutsideGit: no repository, or one with no index yet, tracks
// nothing; an index that is not one is an error (the caller keeps the file).
func TestTrackedOutsideGit(t *testing.T) {
	dir := t.TempDir()
	if got, err := Tracked(filepath.Join(dir, "f.json")); got || err != nil {
		t.Errorf("no repository: %v, %v", got, err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got, err := Tracked(filepath.Join(dir, "f.json")); got || err != nil {
		t.Errorf("no index: %v, %v", got, err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".git", "index"), []byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x05garbage"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Tracked(filepath.Join(dir, "f.json")); err == nil {
		t.Error("a truncated index: no error")
	}
}

// FuzzIndexHolds: a hostile checkout writes its own .git/index; reading it
// ends (no panic, no unbounded loop or allocation) whatever it holds.
func FuzzIndexHolds(f *testing.F) {
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x01" + strings.Repeat("\x00", 60) + "\x00\x05a.txt\x00\x00\x00\x00\x00"))
	f.Add([]byte("DIRC\x00\x00\x00\x04\x00\x00\x00\x02" + strings.Repeat("\x00", 60) + "\x00\x01\x00a\x00" + strings.Repeat("\x00", 60) + "\x00\x01\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01b\x00"))
	f.Add([]byte("DIRC\x00\x00\x00\x03\x00\x00\x00\x00link\x00\x00\x00\x00" + strings.Repeat("\x00", 20)))
	f.Fuzz(func(t *testing.T, data []byte) {
		x := &indexReader{r: bufio.NewReader(bytes.NewReader(data)), size: int64(len(data)), hashLen: 20}
		_, _ = x.holds("a.txt")
	})
}

// TestTrackedSHA256: a repository of SHA-256 object names has 32-byte
// names in its index entries.
func TestTrackedSHA256(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	dir := t.TempDir()
	cmd := exec.Command("git", "init", "-q", "--object-format=sha256", ".")
	cmd.Dir = dir
	if err := cmd.Run(); err != nil {
		t.Skip("git without sha256 repositories:", err)
	}
	for _, n := range []string{"a.json", "b.json", "c.json"} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git(t, dir, "add", "a.json", "c.json")
	for name, want := range map[string]bool{"a.json": true, "b.json": false, "c.json": true} {
		if got, err := Tracked(filepath.Join(dir, name)); err != nil || got != want {
			t.Errorf("Tracked(%s) = %v, %v; want %v", name, got, err, want)
		}
	}
}

// TestTrackedSplitIndex: with core.splitIndex most entries live in a
// shared index file Tracked does not read: a tracked file is never
// reported untracked (an error: the caller keeps the file).
func TestTrackedSplitIndex(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	dir := t.TempDir()
	git(t, dir, "init", "-q", ".")
	if err := os.WriteFile(filepath.Join(dir, "a.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	git(t, dir, "add", "a.json")
	git(t, dir, "update-index", "--split-index")
	if got, err := Tracked(filepath.Join(dir, "a.json")); !got && err == nil {
		t.Error("a file in the shared index reported untracked")
	}
}
