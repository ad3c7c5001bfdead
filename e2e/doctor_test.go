//go:build e2e

package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctor: `hermes-hooks doctor` after install, against the real agents'
// setups (issue 32, item 4). doctor says "fires ✓" for what install wrote;
// where it does, the agent's own run agrees (Claude Code: its guard blocks,
// and the journal then has the agent's event); Codex's folder trust and
// its review of each hook (/hooks), as Codex itself writes them, are what
// doctor reads; and once the binary has
// moved off PATH, doctor says "hermes-hooks not found" and exits non-zero.
func TestDoctor(t *testing.T) {
	t.Run("ClaudeCode", testDoctorClaude)
	t.Run("Codex", testDoctorCodex)
}

func testDoctorClaude(t *testing.T) {
	h := newClaudeHarness(t)

	out, _ := h.doctor(t, h.bin, os.Getenv("PATH"))
	wantFires(t, out, "PreToolUse", "Stop", "SessionStart")
	if !strings.Contains(out, "; no event recorded since") {
		t.Errorf("before Claude Code ran, doctor does not say no event was recorded:\n%s", out)
	}
	// doctor's "fires" is Claude Code's: its run of the same entry asks
	// the guard, which blocks; the journal then holds that event.
	guardCase(t, h, "rm -rf", "marker")
	out, _ = h.doctor(t, h.bin, os.Getenv("PATH"))
	if !strings.Contains(out, "; last event recorded ") {
		t.Errorf("after Claude Code ran the guard, doctor does not name the last event:\n%s", out)
	}

	moved, path := h.moveBinary(t)
	out, code := h.doctor(t, moved, path)
	wantNotFound(t, out, code, "PreToolUse")
}

func testDoctorCodex(t *testing.T) {
	h := newCodexHarness(t)
	h.writeHermesProject(t)

	out, code := h.doctor(t, h.bin, os.Getenv("PATH"))
	wantFires(t, out, "PreToolUse", "Stop")
	if !strings.Contains(out, "not trusted by the agent") || code == 0 {
		t.Errorf("before the user trusts the folder in Codex, doctor does not say so (exit %d):\n%s", code, out)
	}
	// Trusted as Codex's own onboarding writes it (config/batchWrite).
	h.trustProject(t)
	if data, err := os.ReadFile(filepath.Join(h.codexHome, "config.toml")); err == nil {
		t.Logf("config.toml after Codex trusted the project:\n%s", clip(string(data), 2000))
	}
	out, _ = h.doctor(t, h.bin, os.Getenv("PATH"))
	wantFires(t, out, "PreToolUse")
	if strings.Contains(out, "does not trust") {
		t.Errorf("doctor does not read the folder trust Codex wrote:\n%s", out)
	}
	if !strings.Contains(out, "Codex CLI has no review of 13 entries") {
		t.Errorf("before the user trusts the hooks in /hooks, doctor does not say Codex skips them:\n%s", out)
	}
	// Each hook trusted as /hooks does (Codex writes its hash).
	h.trustHooks(t)
	out, _ = h.doctor(t, h.bin, os.Getenv("PATH"))
	wantFires(t, out, "PreToolUse")
	if strings.Contains(out, "not trusted by the agent") {
		t.Errorf("doctor does not read the trust Codex wrote:\n%s", out)
	}

	moved, path := h.moveBinary(t)
	out, code = h.doctor(t, moved, path)
	wantNotFound(t, out, code, "PreToolUse")
}

// doctor runs bin's doctor in the project with PATH path and returns its
// stdout and exit code.
func (h *harness) doctor(t *testing.T, bin, path string) (string, int) {
	t.Helper()
	cmd := exec.Command(bin, "doctor")
	cmd.Dir = h.runDir()
	cmd.Env = append(h.hermesEnv(), "PATH="+path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("hermes-hooks doctor: %v", err)
	}
	t.Logf("hermes-hooks doctor (exit %d):\n%s%s", code, stdout.String(), stderr.String())
	return stdout.String(), code
}

// moveBinary moves hermes-hooks off PATH, as a user who moved or removed
// it, and returns where it is now and a PATH without any hermes-hooks.
func (h *harness) moveBinary(t *testing.T) (moved, path string) {
	t.Helper()
	dir := filepath.Join(h.root, "moved")
	mustMkdir(t, dir)
	moved = filepath.Join(dir, filepath.Base(h.bin))
	if err := os.Rename(h.bin, moved); err != nil {
		t.Fatal(err)
	}
	var keep []string
	for _, d := range filepath.SplitList(os.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(d, "hermes-hooks")); err != nil {
			keep = append(keep, d)
		}
	}
	return moved, strings.Join(keep, string(os.PathListSeparator))
}

func wantFires(t *testing.T, out string, events ...string) {
	t.Helper()
	for _, ev := range events {
		if !strings.Contains(out, "      "+ev+": fires ✓\n") {
			t.Errorf("doctor does not say %s fires:\n%s", ev, out)
		}
	}
}

func wantNotFound(t *testing.T, out string, code int, event string) {
	t.Helper()
	if !strings.Contains(out, "      "+event+": ✗ hermes-hooks not found") {
		t.Errorf("with hermes-hooks moved off PATH, doctor does not say %s cannot find it:\n%s", event, out)
	}
	if strings.Contains(out, "fires ✓") {
		t.Errorf("with hermes-hooks moved off PATH, doctor still says an entry fires:\n%s", out)
	}
	if code == 0 {
		t.Errorf("doctor exits 0 although a guard does not fire")
	}
}
