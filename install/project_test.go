package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Root: --user is the home directory, --project is taken as given (made
// absolute) and must be a directory, and no flag is the project around the
// working directory, saying why.
func TestRoot(t *testing.T) {
	home := t.TempDir()
	setHome(t, home)
	if dir, why, err := Root(true, ""); err != nil || dir != home || why != "" {
		t.Errorf("Root(user) = %q, %q, %v; want %q", dir, why, err, home)
	}
	proj := t.TempDir()
	if dir, why, err := Root(false, proj); err != nil || dir != proj || why != "" {
		t.Errorf("Root(project %q) = %q, %q, %v", proj, dir, why, err)
	}
	file := filepath.Join(proj, "f")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Root(false, file); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Root(project = a file) = %v; want not a directory", err)
	}
	repo := t.TempDir()
	sub := filepath.Join(repo, "a", "b")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Chdir(sub)
	dir, why, err := Root(false, "")
	if err != nil || dir != repo || !strings.Contains(why, "git repository") {
		t.Errorf("Root() in %s = %q, %q, %v; want %q, the repository's root", sub, dir, why, err, repo)
	}
	t.Chdir(proj)
	if dir, why, err := Root(false, ""); err != nil || dir != proj || !strings.Contains(why, "no git repository") {
		t.Errorf("Root() in %s = %q, %q, %v; want it, in no repository", proj, dir, why, err)
	}
}
