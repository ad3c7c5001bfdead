//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctorCodexRootBelowInstall: Codex reads the .codex folders from
// the project's root (the nearest folder at or above where it runs that
// holds .git) down to where it runs, and none above that root. Guards
// installed in a folder that is no repository (a workspace of several)
// are then not read by Codex run inside one of its repositories, while
// doctor run there said "fires ✓". What Codex loads is asked of the real
// Codex (app-server's hooks/list, per folder); doctor run in each folder
// must agree.
func TestDoctorCodexRootBelowInstall(t *testing.T) {
	h := newCodexHome(t)
	out := h.hermesHooks(t, "install", "codex")
	t.Logf("hermes-hooks install codex (in %s): %s", h.project, strings.TrimSpace(out))
	repo := filepath.Join(h.project, "repo")
	mustMkdir(t, repo)
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Skipf("skipped: git init: %v\n%s", err, out)
	}
	plain := filepath.Join(h.project, "plain")
	mustMkdir(t, plain)
	for _, d := range []string{h.project, repo, plain} {
		h.setTrust(t, d, "trusted")
	}
	defer func() { h.workDir = "" }()
	type place struct {
		name, dir string
		loads     bool
	}
	check := func(t *testing.T, places []place) {
		for _, c := range places {
			t.Run(c.name, func(t *testing.T) {
				rpc := h.startAppServer(t)
				loads := len(h.ourHooksIn(t, rpc, c.dir)) > 0
				rpc.close(t)
				if loads != c.loads {
					t.Errorf("Codex run in %s loads the hooks installed in %s: %v, want %v (docs/agents.md)", c.dir, h.project, loads, c.loads)
				}
				h.workDir = c.dir
				out, _ := h.doctor(t, h.bin, os.Getenv("PATH"))
				says := strings.Contains(out, "not read by Codex CLI run here")
				if says == loads {
					t.Errorf("Codex run in %s loads the hooks: %v; doctor run there says they are not read: %v:\n%s", c.dir, loads, says, out)
				}
			})
		}
	}
	// The install folder is no repository: Codex takes the folder it
	// runs in as the root, so only a run in the install folder itself
	// reads its hooks.
	t.Run("Workspace", func(t *testing.T) {
		check(t, []place{
			{"InstallFolder", h.project, true},
			{"PlainFolderBelow", plain, false},
			{"RepositoryBelow", repo, false},
		})
	})
	// The install folder is a repository: a plain folder below it is in
	// it, a nested repository is a project of its own.
	if out, err := exec.Command("git", "init", "-q", h.project).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	t.Run("Repository", func(t *testing.T) {
		check(t, []place{
			{"InstallFolder", h.project, true},
			{"PlainFolderBelow", plain, true},
			{"NestedRepository", repo, false},
		})
	})
}

// ourHooksIn is app-server's hooks/list for Codex run in dir: the hooks
// of hermes-hooks among them (none is no failure here).
func (h *codexHarness) ourHooksIn(t *testing.T, rpc *appServer, dir string) []codexHook {
	t.Helper()
	var res struct {
		Data []struct {
			Hooks []codexHook `json:"hooks"`
		} `json:"data"`
	}
	rpc.call(t, "hooks/list", map[string]any{"cwds": []string{dir}}, &res)
	var hooks []codexHook
	for _, d := range res.Data {
		for _, hk := range d.Hooks {
			if strings.Contains(hk.Command, "hermes-hooks hook codex ") {
				hooks = append(hooks, hk)
			}
		}
	}
	t.Logf("Codex run in %s lists %d hook(s) of hermes-hooks", dir, len(hooks))
	return hooks
}
