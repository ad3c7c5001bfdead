//go:build unix

package hookconfig

import (
	"path/filepath"
	"strings"
	"testing"
)

// Attack: a repository's hooks file naming, for an agent whose hook
// source is a folder (Cline's cline_hooks), a folder outside the
// repository: it was listed (opened) before each file in it was refused
// as outside the project — an empty one loaded with no problem at all, so
// the load told whether it exists — where nothing outside the repository
// may be looked at (an automounted or network path acts). The proof of a
// look is the access time of a link outside the repository (linkAtime).
func TestRepositoryAgentFolderOutsideIsNotListed(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	writeFiles(t, dir, map[string]string{
		"repo/.git/HEAD":   "ref: refs/heads/main\n",
		"target/.keep":     "",
		"home/config.yaml": "",
	})
	outside := filepath.Join(dir, "outside")
	watchedLink(t, "target", outside)
	for name, hooks := range map[string]string{
		"absolute": "cline_hooks: " + outside + "\n",
		"up":       "cline_hooks: ../outside\n",
	} {
		t.Run(name, func(t *testing.T) {
			writeFiles(t, repo, map[string]string{".hermes/hooks.yaml": hooks})
			ageLink(t, outside)
			cfg, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo})
			if err != nil {
				t.Fatal(err)
			}
			if got := linkAtime(t, outside); got != oldAtime {
				t.Errorf("the link outside the repository was followed (its access time went from %d to %d)", oldAtime, got)
			}
			if len(cfg.Unloaded) != 1 || !strings.Contains(cfg.Unloaded[0].Err.Error(), "outside the project") {
				t.Errorf("unloaded %+v: want the folder refused, outside the project", cfg.Unloaded)
			}
		})
	}
}
