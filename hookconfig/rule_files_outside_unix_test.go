//go:build unix

package hookconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// oldAtime is a symlink access time no load of today can leave in place.
const oldAtime = 946684800 // 2000-01-01

// linkAtime is the access time of the symbolic link at p itself.
func linkAtime(t *testing.T, p string) int64 {
	t.Helper()
	var st unix.Stat_t
	if err := unix.Lstat(p, &st); err != nil {
		t.Fatal(err)
	}
	return st.Atim.Sec
}

// ageLink sets the access time of the symbolic link at p to oldAtime.
func ageLink(t *testing.T, p string) {
	t.Helper()
	ts := []unix.Timespec{{Sec: oldAtime}, {Sec: oldAtime}}
	if err := unix.UtimesNanoAt(unix.AT_FDCWD, p, ts, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		t.Skipf("cannot set a link's times here: %v", err)
	}
}

// watchedLink makes link, a symbolic link to target, whose access time
// tells whether anything followed it: the test is skipped where following
// a link does not update its access time (noatime), as there is nothing
// to observe there.
func watchedLink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	ageLink(t, link)
	if _, err := os.Stat(link); err != nil {
		t.Fatal(err)
	}
	if linkAtime(t, link) == oldAtime {
		t.Skip("following a link does not update its access time here (noatime)")
	}
}

// Attack: a repository's rules: naming a path outside it (or a link in
// it that leads outside) was refused, but only after a stat of that path,
// made to compare it with the files already read (cycles, repeats): a
// stat acts too — an automounted /net/HOST mounts the repository's host,
// a Windows \\host\share path hands it the user's credentials — and
// docs/config.md says nothing outside the repository is looked at. The
// proof of a look here is the access time of a link outside the
// repository, which following it updates.
func TestRepositoryRuleFileOutsideIsNotLookedAt(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	writeFiles(t, dir, map[string]string{
		"repo/.git/HEAD":   "ref: refs/heads/main\n",
		"target.yaml":      ruleFileYAML,
		"home/config.yaml": "",
	})
	outside := filepath.Join(dir, "outside.yaml")
	watchedLink(t, "target.yaml", outside)
	for name, hooks := range map[string]string{
		"absolute":      "rules: [" + outside + "]\n",
		"up":            "rules: [../../outside.yaml]\n",
		"included":      "rules: [in.yaml]\n",
		"link in repo":  "rules: [link.yaml]\n",
		"link included": "rules: [in-link.yaml]\n",
	} {
		t.Run(name, func(t *testing.T) {
			writeFiles(t, repo, map[string]string{
				".hermes/hooks.yaml":   hooks,
				".hermes/in.yaml":      "rules: [" + outside + "]\n" + ruleFileYAML,
				".hermes/in-link.yaml": "rules: [link.yaml]\n" + ruleFileYAML,
			})
			link := filepath.Join(repo, ".hermes", "link.yaml")
			if err := os.Symlink(outside, link); err != nil && !os.IsExist(err) {
				t.Fatal(err)
			}
			ageLink(t, outside)
			cfg, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo})
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Unloaded) != 1 || !strings.Contains(cfg.Unloaded[0].Err.Error(), "outside the project") {
				t.Fatalf("unloaded %+v: want the hooks file refused, outside the project", cfg.Unloaded)
			}
			if got := linkAtime(t, outside); got != oldAtime {
				t.Errorf("the link outside the repository was followed (its access time went from %d to %d)", oldAtime, got)
			}
		})
	}
}
