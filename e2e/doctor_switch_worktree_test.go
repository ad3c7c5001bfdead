//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// testSwitchesCodexWorktree: Codex trusts a linked git worktree that has
// no [projects] entry of its own by its main checkout's entry (openai/codex
// decision_for_dir, resolve_root_git_project_for_trust), so a worktree of
// a trusted repository has its .codex/config.toml read, and a switch
// there turns the user's guards off; doctor, run in the worktree, must
// say so. h is testSwitchesCodexNested's: its project a git repository,
// trusted, no switch left set. The steps run in the worktree as the
// project (its .hermes a copy of the project's, approved there), and h
// is given back as it was.
func testSwitchesCodexWorktree(t *testing.T, h *codexHarness) {
	main := h.project
	wt := filepath.Join(h.root, "worktree")
	for _, args := range [][]string{
		{"-C", main, "-c", "user.name=e2e", "-c", "user.email=e2e@example.com", "commit", "-q", "--allow-empty", "-m", "e2e"},
		{"-C", main, "worktree", "add", "-q", wt},
	} {
		if out, err := exec.Command("git", args...).CombinedOutput(); err != nil {
			t.Skipf("skipped: git %v: %v\n%s", args, err, out)
		}
	}
	for _, name := range []string{"hooks.yaml", "guard.sh", "context.sh", "unapproved.sh"} {
		data, err := os.ReadFile(filepath.Join(main, ".hermes", name))
		if err != nil {
			t.Fatal(err)
		}
		mustMkdir(t, filepath.Join(wt, ".hermes"))
		mustWrite(t, filepath.Join(wt, ".hermes", name), string(data), 0o755)
	}
	h.project = wt
	defer func() { h.project = main }()
	for _, c := range []string{"./.hermes/guard.sh", "./.hermes/context.sh"} {
		h.hermesHooks(t, "approve", c)
	}
	config := filepath.Join(wt, ".codex", "config.toml")
	mustMkdir(t, filepath.Dir(config))
	runSwitchSteps(t, h, "rm -r", []switchStep{
		{name: "WorktreeNone", set: func(*testing.T) {}},
		{
			// No entry of the worktree's own: the main checkout's trust.
			name: "WorktreeTrustedByMain", off: true,
			set:  func(t *testing.T) { mustWrite(t, config, "[features]\nhooks = false\n", 0o644) },
			says: []string{"✗ this project's .codex/config.toml turns all hooks off, including your guards: [features] hooks = false"},
		},
		{
			// The worktree's own entry outranks the main checkout's.
			name: "WorktreeOwnUntrusted",
			set:  func(t *testing.T) { h.setTrust(t, wt, "untrusted") },
		},
	})
	mustRemove(t, config)
}

// testSwitchesCodexMarkers: Codex takes for the project's root the
// nearest folder holding one of the user's project_root_markers (a
// top-level list in config.toml; .git when unset), else the folder it
// runs in; an empty list makes the folder it runs in the root always
// (openai/codex config_loader find_project_root). A switch in a folder
// above that root is not read; doctor must not report it. h is
// testSwitchesCodexNested's (its project a trusted git repository).
func testSwitchesCodexMarkers(t *testing.T, h *codexHarness) {
	user := filepath.Join(h.codexHome, "config.toml")
	before, err := os.ReadFile(user)
	if err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(h.project, "sub")
	dir := filepath.Join(sub, "dir")
	subConfig := filepath.Join(sub, ".codex", "config.toml")
	marker := filepath.Join(dir, "pkg.json")
	mustMkdir(t, filepath.Dir(subConfig))
	defer func() {
		h.workDir = ""
		mustWrite(t, user, string(before), 0o644)
		mustRemove(t, subConfig)
		_ = os.Remove(marker)
	}()
	// markers puts the list first in the user's config.toml: a top-level
	// key must come before the tables Codex wrote.
	markers := func(list string) func(*testing.T) {
		return func(t *testing.T) { mustWrite(t, user, "project_root_markers = "+list+"\n"+string(before), 0o644) }
	}
	runSwitchSteps(t, h, "rm -r", []switchStep{
		{name: "MarkersNone", set: func(*testing.T) { h.workDir = dir }},
		{
			name: "MarkersDefaultGit", off: true,
			set:  func(t *testing.T) { mustWrite(t, subConfig, "[features]\nhooks = false\n", 0o644) },
			says: []string{"✗ this project's sub/.codex/config.toml turns all hooks off"},
		},
		// The folder Codex runs in is the root: sub's layer is not read.
		{name: "MarkersEmpty", set: markers("[]")},
		{
			name: "MarkersFileBelow",
			set: func(t *testing.T) {
				mustWrite(t, marker, "{}\n", 0o644)
				markers(`["pkg.json"]`)(t)
			},
		},
	})
}
