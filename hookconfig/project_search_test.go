package hookconfig

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// ProjectSearchPaths lists what FindProjectHooks looks at: the project
// hooks file it finds is among them, and so is each .git whose presence
// decides where the search stops (serve watches them all).
func TestProjectSearchPaths(t *testing.T) {
	root := t.TempDir()
	mk := func(p string) {
		if err := os.MkdirAll(filepath.Join(root, p), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	mk("repo/.git")
	mk("repo/.hermes")
	mk("repo/sub/deep")
	mk("plain/dir")
	if err := os.WriteFile(filepath.Join(root, "repo", ProjectHooksFile), []byte("hooks: {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		dir       string
		found     string
		must, not []string
	}{
		{dir: "repo/sub/deep", found: "repo/" + ProjectHooksFile,
			must: []string{"repo/sub/deep/.git", "repo/sub/.git", "repo/.git", "repo/sub/deep/" + ProjectHooksFile, "repo/sub/" + ProjectHooksFile, "repo/" + ProjectHooksFile}},
		// Outside a repository only dir itself is searched, but every
		// ancestor's .git decides that.
		{dir: "plain/dir", must: []string{"plain/dir/" + ProjectHooksFile, "plain/dir/.git", "plain/.git", ".git"},
			not: []string{"plain/" + ProjectHooksFile}},
	} {
		dir := filepath.Join(root, c.dir)
		files, gits := ProjectSearchPaths(dir)
		for _, g := range gits {
			if filepath.Base(g) != ".git" {
				t.Errorf("%s: %s listed as presence-only", c.dir, g)
			}
		}
		got := append(files, gits...)
		want := ""
		if c.found != "" {
			want = filepath.Join(root, c.found)
		}
		if f := FindProjectHooks(dir); f != want {
			t.Errorf("%s: FindProjectHooks = %q, want %q", c.dir, f, want)
		}
		for _, m := range c.must {
			if !slices.Contains(got, filepath.Join(root, m)) {
				t.Errorf("%s: %s not searched: %v", c.dir, m, got)
			}
		}
		for _, m := range c.not {
			if slices.Contains(got, filepath.Join(root, m)) {
				t.Errorf("%s: %s searched: %v", c.dir, m, got)
			}
		}
	}
}
