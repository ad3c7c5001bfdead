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
