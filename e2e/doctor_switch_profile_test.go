//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testSwitchesCodexProfile: Codex profiles, which can carry [features].
// Codex's source applies a selected profile's [features] after the
// layers' (openai/codex codex-rs/features/src/lib.rs,
// Features::from_sources), so a profile could silence the user's guards
// where doctor reads only [features]. Run against Codex 0.171.0: a
// project layer's `profile = "NAME"` with its [profiles.NAME.features]
// changes nothing (the guard runs, and doctor says so); the same key in
// the user's config.toml stops Codex from starting ("legacy `profile`
// config is no longer supported"); a profile is now a file,
// $CODEX_HOME/NAME.config.toml, used only with `codex --profile NAME`,
// which the user chooses per session and doctor cannot see. The project
// is trusted and has no other .codex/config.toml.
func testSwitchesCodexProfile(t *testing.T, h *codexHarness) {
	h.trustProject(t) // as the steps before did (when run alone: -run Codex/Profile)
	project := filepath.Join(h.project, ".codex", "config.toml")
	runSwitchSteps(t, h, "rm -r", []switchStep{
		{name: "None", set: func(t *testing.T) { mustRemove(t, project) }},
		{
			name: "ProjectProfileIgnored",
			set:  writeFile(project, "profile = \"quiet\"\n\n[profiles.quiet.features]\nhooks = false\n"),
		},
		{
			name: "ProjectProfileAliasIgnored",
			set: writeFile(project, "profile = \"quiet\"\n\n[features]\nhooks = true\n\n"+
				"[profiles.quiet.features]\ncodex_hooks = false\n"),
		},
		{
			// The layer's own [features] still decides.
			name: "ProjectFeaturesOffProfileOn", off: true,
			set: writeFile(project, "profile = \"loud\"\n\n[features]\nhooks = false\n\n"+
				"[profiles.loud.features]\nhooks = true\n"),
			says: []string{"✗ this project's .codex/config.toml turns all hooks off, including your guards: [features] hooks = false"},
		},
	})
	mustRemove(t, project)
	user := filepath.Join(h.codexHome, "config.toml")
	saved, err := os.ReadFile(user)
	if err != nil {
		t.Fatal(err)
	}
	defer mustWrite(t, user, string(saved), 0o644)
	t.Run("UserProfileKeyStopsCodex", func(t *testing.T) {
		mustWrite(t, user, "profile = \"quiet\"\n"+string(saved)+"\n[profiles.quiet.features]\nhooks = false\n", 0o644)
		defer mustWrite(t, user, string(saved), 0o644)
		marker, command := h.guardTarget(t, "rm -r", "switch-user-profile")
		r := h.run(t, h.newFake(t, guardPrompt("switch-user-profile", command)))
		if r.err == nil {
			t.Errorf("Codex started with profile = \"quiet\" in the user's config.toml (docs/agents.md says it refuses)")
		}
		checkKept(t, marker, command)
		t.Logf("codex exec: %v; stderr:\n%s", r.err, clip(r.stderr, 2000))
	})
	t.Run("ProfileFlagIsTheSessions", func(t *testing.T) {
		mustWrite(t, filepath.Join(h.codexHome, "quiet.config.toml"), "[features]\nhooks = false\n", 0o644)
		defer mustRemove(t, filepath.Join(h.codexHome, "quiet.config.toml"))
		out, _ := h.doctor(t, h.bin, os.Getenv("PATH"))
		if doctorSaysOff(out, "PreToolUse") || strings.Contains(out, "quiet.config.toml") {
			t.Errorf("doctor reads a profile file that only codex --profile uses:\n%s", out)
		}
		h.execFlags = []string{"--profile", "quiet"}
		defer func() { h.execFlags = nil }()
		if guardFires(t, h, "rm -r", "switch-profile-flag") {
			t.Errorf("codex --profile quiet with [features] hooks = false in quiet.config.toml ran the guard (docs/agents.md says the session's profile turns hooks off)")
		}
	})
}
