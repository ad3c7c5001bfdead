//go:build unix

package server

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// startWithRuleLinkOut starts a server whose project's hooks file names
// rules: [link.yaml], a link leading out of the project (to
// ../outside.yaml), beside an in.yaml it could lead to instead; it
// returns the link's and the outside file's paths.
func startWithRuleLinkOut(t *testing.T) (f *fixture, link, outside string) {
	t.Helper()
	f = start(t, "hooks: {}\n", nil, func(o *Options) {
		noWatch(o)
		o.ProjectDir = o.Cwd
		outside = filepath.Join(filepath.Dir(o.Cwd), "outside.yaml")
		link = filepath.Join(o.Cwd, ".hermes", "link.yaml")
		if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
			t.Fatal(err)
		}
		for p, body := range map[string]string{
			filepath.Join(o.Cwd, ".hermes", "hooks.yaml"): "rules: [link.yaml]\n",
			filepath.Join(o.Cwd, ".hermes", "in.yaml"):    "hooks: {}\n",
			outside: "hooks: {}\n",
		} {
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink(outside, link); err != nil {
			t.Fatal(err)
		}
	})
	return f, link, outside
}

// Attack: a repository's rule file that is a link leading out of the
// repository. The loader refuses it without a look outside; serve listed
// it among the files it stats, watches and reads at every reload and
// forwarded call, following the link out each time (an automounted or
// network path acts when looked at). It is listed by the link's own
// identity only, which is what changes when it is pointed back inside.
func TestProjectRuleLinkOutIsNotFollowed(t *testing.T) {
	f, link, outside := startWithRuleLinkOut(t)
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

// That link pointed back inside changes no file the loader read (it
// refused the link by its text) and no link's type: a refresh with no
// file event behind it (a forwarded call's, the settle timer's) found the
// fingerprint unchanged and only recorded the link's new identity — after
// which forwarded calls were answered from the stale refusal, where the
// one-shot reads the rule the link now names. Where a link leads is part
// of the fingerprint: the refresh waits for the files to settle and then
// reloads, and until then forwarded calls are refused.
func TestProjectRuleLinkPointedBackInsideReloads(t *testing.T) {
	f, link, _ := startWithRuleLinkOut(t)
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("in.yaml", link); err != nil {
		t.Fatal(err)
	}
	f.srv.look()
	g := f.srv.cur.Load()
	if len(g.cfg.Unloaded) != 0 && f.srv.staleConflict(g) == "" {
		t.Errorf("after a look, serve answers forwarded calls from the refusal of the link it no longer is (%v), not knowing the link now leads inside", g.cfg.Unloaded[0].Err)
	}
}
