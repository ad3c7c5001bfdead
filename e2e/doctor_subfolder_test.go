//go:build e2e

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// notReadHere is doctor's line for a hook file the agent run in doctor's
// folder does not read.
var notReadHere = regexp.MustCompile(`✗ not read by [^\n]* run here`)

// TestDoctorSubfolder: where each agent reads a project's hook file from
// when it starts in a folder below the project's root (a package of a
// monorepo). Claude Code, Gemini CLI and Qwen Code read their project
// settings in the folder they start in only (Claude Code's debug log
// names <cwd>/.claude/settings.json and nothing above it), so guards
// installed at the repository's root do not run there; Copilot CLI finds
// the repository's. doctor run in that folder must say what the agent
// did, and the docs claim it (docs/agents.md, "Where an agent reads a
// project's hook file"). Codex: TestDoctorCodexRootBelowInstall.
func TestDoctorSubfolder(t *testing.T) {
	for _, c := range []struct {
		name  string
		new   func(t *testing.T) agent
		reads bool // the root's file, when started in a subfolder
	}{
		{"ClaudeCode", func(t *testing.T) agent { return newClaudeHarness(t) }, false},
		{"GeminiCLI", func(t *testing.T) agent { return newGeminiHarness(t) }, false},
		{"QwenCode", func(t *testing.T) agent { return newQwenHarness(t) }, false},
		{"CopilotCLI", func(t *testing.T) agent { return newCopilotHarness(t) }, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := c.new(t)
			h := a.base()
			// A repository, so that hermes-hooks run by the agent in the
			// subfolder finds the project's .hermes (its guard) there too.
			if out, err := exec.Command("git", "init", "-q", h.project).CombinedOutput(); err != nil {
				t.Skipf("skipped: git init: %v\n%s", err, out)
			}
			if !guardFires(t, a, "rm -rf", "root-run") {
				t.Fatalf("the guard did not run for %s started in the project's root: the subfolder's answer would prove nothing", a.spec().name)
			}
			sub := filepath.Join(h.project, "packages", "web")
			mustMkdir(t, sub)
			h.workDir = sub
			defer func() { h.workDir = "" }()
			fired := guardFires(t, a, "rm -rf", "sub-run")
			if fired != c.reads {
				t.Errorf("%s started in %s ran the guard installed at the root: %v; docs/agents.md says %v", a.spec().name, sub, fired, c.reads)
			}
			out, _ := h.doctor(t, h.bin, os.Getenv("PATH"))
			says := notReadHere.MatchString(out)
			if says == fired {
				t.Errorf("%s started here ran the guard: %v; doctor run here says the file is not read: %v:\n%s", a.spec().name, fired, says, out)
			}
		})
	}
}
