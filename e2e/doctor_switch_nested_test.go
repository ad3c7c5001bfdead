//go:build e2e

package e2e

import (
	"os/exec"
	"path/filepath"
	"testing"
)

// testSwitchesCodexNested: Codex reads a .codex/config.toml in every
// folder from the project's root (the nearest folder with .git) down to
// the folder it runs in, a nearer folder's above a farther one's, each
// trusted by its own [projects] table, else by the root's (openai/codex
// codex-rs/core/src/config_loader/mod.rs, load_project_layers and
// decision_for_dir). A repository can hide [features] hooks = false in a
// subfolder; doctor, run where Codex runs, must say what Codex does. h is
// testSwitchesCodex's, its project trusted and no switch left set.
func testSwitchesCodexNested(t *testing.T, h *codexHarness) {
	// The project becomes a git repository, so that its root is the
	// project's for Codex (else it is the working folder) and for
	// hermes-hooks (whose guard reads the project's .hermes there).
	cmd := exec.Command("git", "init", "-q", h.project)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("skipped: git init: %v\n%s", err, out)
	}
	defer func() { h.workDir = "" }()
	sub := filepath.Join(h.project, "sub")
	dir := filepath.Join(sub, "dir")
	subConfig := filepath.Join(sub, ".codex", "config.toml")
	dirConfig := filepath.Join(dir, ".codex", "config.toml")
	mustMkdir(t, filepath.Dir(subConfig))
	mustMkdir(t, filepath.Dir(dirConfig))
	feature := func(line string) string { return "[features]\n" + line + "\n" }
	in := func(d string) func(*testing.T) { return func(*testing.T) { h.workDir = d } }
	// then is a step's set: each of fs in turn, on the step's t.
	then := func(fs ...func(*testing.T)) func(t *testing.T) {
		return func(t *testing.T) {
			for _, f := range fs {
				f(t)
			}
		}
	}
	remove := func(file string) func(*testing.T) {
		return func(t *testing.T) { mustRemove(t, file) }
	}
	dirOff := "✗ this project's sub/dir/.codex/config.toml turns all hooks off, including your guards: [features] hooks = false; " +
		"fix: a trusted project's config outranks yours: start Codex with codex --enable hooks"
	runSwitchSteps(t, h, "rm -r", []switchStep{
		{name: "NestedNone", set: then(in(dir))},
		{
			// What a hostile repository commits, deep in its tree.
			name: "NestedInSubdir", off: true,
			set:  then(writeFile(dirConfig, feature("hooks = false")), in(dir)),
			says: []string{dirOff},
		},
		// Not read where Codex runs above that folder.
		{name: "NestedFromRoot", set: then(in(h.project))},
		{name: "NestedFromParent", set: then(in(sub))},
		{
			// The nearer folder's layer outranks the farther one's.
			name: "NestedNearerTrue",
			set:  then(writeFile(subConfig, feature("hooks = false")), writeFile(dirConfig, feature("hooks = true")), in(dir)),
		},
		{
			name: "NestedFartherFalse", off: true,
			set:  then(remove(dirConfig), in(dir)),
			says: []string{"✗ this project's sub/.codex/config.toml turns all hooks off, including your guards: [features] hooks = false"},
		},
		{
			// The folder's own [projects] table decides for its layer,
			// over the root's trust.
			name: "NestedOwnUntrusted",
			set: func(t *testing.T) {
				mustRemove(t, subConfig)
				mustWrite(t, dirConfig, feature("hooks = false"), 0o644)
				h.setTrust(t, dir, "untrusted")
				h.workDir = dir
			},
		},
		{
			name: "NestedOwnTrustedRootNot", off: true,
			set: func(t *testing.T) {
				h.setTrust(t, dir, "trusted")
				h.setTrust(t, h.project, "untrusted")
			},
			says: []string{dirOff},
		},
	})
	h.setTrust(t, h.project, "trusted")
	mustRemove(t, dirConfig)
}

// setTrust sets dir's [projects] trust_level in the user's config.toml,
// through Codex's own app-server as trustProject does.
func (h *codexHarness) setTrust(t *testing.T, dir, level string) {
	t.Helper()
	rpc := h.startAppServer(t)
	defer rpc.close(t)
	rpc.call(t, "config/batchWrite", map[string]any{"edits": []any{map[string]any{
		"keyPath": "projects", "mergeStrategy": "upsert",
		"value": map[string]any{dir: map[string]any{"trust_level": level}},
	}}}, nil)
}
