package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// gitIn runs git in dir with no user or system config, returning its
// output.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_AUTHOR_NAME=a", "GIT_AUTHOR_EMAIL=a@x", "GIT_COMMITTER_NAME=a", "GIT_COMMITTER_EMAIL=a@x")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// runCLI runs the binary's main in-process with HERMES_HOME=state.
func runCLI(t *testing.T, state string, args ...string) string {
	t.Helper()
	t.Setenv("HERMES_HOME", state)
	var out, errw bytes.Buffer
	if code := run(args, strings.NewReader(""), &out, &errw); code != 0 {
		t.Fatalf("hermes-hooks %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errw.String())
	}
	return out.String()
}

// TestUninstallKeepsCommittedFiles: for every agent install writes a
// project file for, a team commits what install wrote; a teammate's
// install changes nothing and records nothing, and neither the teammate's
// uninstall --all, nor their uninstall AGENT, nor the first author's
// uninstall --all deletes a file git tracks (git status shows no D).
func TestUninstallKeepsCommittedFiles(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("needs git")
	}
	t.Setenv("HOME", t.TempDir())
	// Each target: the install arguments, given the project.
	targets := map[string]func(proj string) []string{
		"opencode": func(proj string) []string { return []string{"opencode", "--project", proj} },
		"open-plugin": func(proj string) []string {
			return []string{"open-plugin", filepath.Join(proj, ".agents", "plugins", "hermes-hooks")}
		},
	}
	for _, ag := range agents.All() {
		if ag.HookFile.Project != "" && len(ag.HookFile.Events) > 0 {
			targets[ag.Name] = func(proj string) []string { return []string{ag.Name, "--project", proj} }
		}
	}
	for name, argsOf := range targets {
		t.Run(name, func(t *testing.T) {
			proj, alice, bob := t.TempDir(), t.TempDir(), t.TempDir()
			gitIn(t, proj, "init", "-q", ".")
			args := argsOf(proj)
			runCLI(t, alice, append([]string{"install"}, args...)...)
			gitIn(t, proj, "add", "-A")
			gitIn(t, proj, "commit", "-q", "-m", "hooks")

			if out := runCLI(t, bob, append([]string{"install"}, args...)...); !strings.Contains(out, "nothing changed") {
				t.Fatalf("the teammate's install changed something:\n%s", out)
			}
			if _, err := os.Stat(filepath.Join(bob, "hermes-hooks-installs.json")); err == nil {
				if out := runCLI(t, bob, "installs"); strings.Contains(out, proj) {
					t.Errorf("the teammate's install that changed nothing was recorded:\n%s", out)
				}
			}
			runCLI(t, bob, "uninstall", "--all")
			if st := gitIn(t, proj, "status", "--porcelain"); st != "" {
				t.Errorf("the teammate's uninstall --all changed the checkout:\n%s", st)
			}
			out := runCLI(t, bob, append([]string{"uninstall"}, args...)...)
			if st := gitIn(t, proj, "status", "--porcelain"); strings.Contains(st, "D ") {
				t.Errorf("the teammate's uninstall %s deleted a committed file:\n%s\n%s", name, st, out)
			}
			gitIn(t, proj, "checkout", "-q", "--", ".")
			out = runCLI(t, alice, "uninstall", "--all")
			if st := gitIn(t, proj, "status", "--porcelain"); strings.Contains(st, "D ") {
				t.Errorf("the author's uninstall --all deleted a committed file:\n%s\n%s", st, out)
			}
		})
	}
}
