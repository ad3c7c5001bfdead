//go:build unix

package server

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Attack: a repository's rule file that is a link leading out of the
// repository. The loader refuses it without a look outside; serve listed
// it among the files it stats, watches and reads at every reload and
// forwarded call, following the link out each time (an automounted or
// network path acts when looked at). It is listed by the link's own
// identity only, which is what changes when it is pointed back inside.
func TestProjectRuleLinkOutIsNotFollowed(t *testing.T) {
	var link, outside string
	f := start(t, "hooks: {}\n", nil, func(o *Options) {
		noWatch(o)
		o.ProjectDir = o.Cwd
		outside = filepath.Join(filepath.Dir(o.Cwd), "outside.yaml")
		link = filepath.Join(o.Cwd, ".hermes", "link.yaml")
		if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(o.Cwd, ".hermes", "hooks.yaml"), []byte("rules: [link.yaml]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(outside, []byte("hooks: {}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, link); err != nil {
			t.Fatal(err)
		}
	})
	if len(f.srv.cur.Load().cfg.Unloaded) == 0 {
		t.Fatal("the rule file leading out of the repository was loaded")
	}
	files := f.srv.disk.Load().files
	if slices.Contains(files, link) || slices.Contains(files, outside) {
		t.Errorf("serve follows the link out of the repository: %q listed whole", link)
	}
	if !slices.Contains(files, linkMark+link) {
		t.Errorf("the link itself is not listed, so pointing it back inside would not reload: %q", files)
	}
}
