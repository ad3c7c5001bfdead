//go:build e2e

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBOMAgentFiles: the hook file `hermes-hooks install` wrote, saved
// again with a UTF-8 byte order mark first (as Notepad or VS Code's
// "UTF-8 with BOM" saves it), then doctor, then the real agent asked for
// a guarded rm. doctor's claim ("fires ✓" for the pre-tool entry, or the
// file refused as not valid JSON) must be what the agent did: a reader
// of ours that skips a mark the agent refuses would say "fires ✓" for a
// guard that never runs. Claude Code and Codex are proved in
// TestDoctorSwitches; Cline's hooks are scripts, not JSON.
func TestBOMAgentFiles(t *testing.T) {
	t.Run("GeminiCLI", func(t *testing.T) {
		h := newGeminiHarness(t)
		bomSteps(t, h, "BeforeTool", filepath.Join(h.project, ".gemini", "settings.json"))
	})
	t.Run("QwenCode", func(t *testing.T) {
		h := newQwenHarness(t)
		bomSteps(t, h, "PreToolUse", filepath.Join(h.project, ".qwen", "settings.json"))
	})
	t.Run("CopilotCLI", func(t *testing.T) {
		h := newCopilotHarness(t)
		bomSteps(t, h, "PreToolUse", filepath.Join(h.project, ".github", "hooks", "hermes-hooks.json"))
	})
}

// bomSteps: first the file as install wrote it (doctor says fires and
// the guard fires, else the second step proves nothing), then the same
// file after a byte order mark.
func bomSteps(t *testing.T, a agent, event, file string) {
	name := a.spec().name
	if !t.Run("Plain", func(t *testing.T) {
		says, fired := doctorAndGuard(t, a, event, "bom-plain")
		if !says || !fired {
			t.Fatalf("without a byte order mark doctor says %s fires: %v, and %s %s the guard", event, says, name, ranOrNot(fired))
		}
	}) {
		t.Fatalf("the file as installed must fire, else the BOM step proves nothing")
	}
	t.Run("BOM", func(t *testing.T) {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		mustWrite(t, file, "\ufeff"+string(data), 0o644)
		says, fired := doctorAndGuard(t, a, event, "bom-marked")
		// The line the report records: which way the agent went.
		t.Logf("BOM-VERDICT %s: %s the guard of a hook file after a byte order mark; doctor says %s fires: %v", name, ranOrNot(fired), event, says)
		if says != fired {
			t.Errorf("doctor says %s fires: %v, but %s %s the guard of %s after a byte order mark", event, says, name, ranOrNot(fired), file)
		}
		if !says && !fired {
			// Refused as the agent refuses it: doctor must say why.
			out, _ := a.base().doctor(t, a.base().bin, os.Getenv("PATH"))
			if !strings.Contains(out, "not valid JSON") {
				t.Errorf("doctor does not say the file is not valid JSON:\n%s", out)
			}
		}
	})
}

// doctorAndGuard runs doctor, then the agent asked for rm -rf on a new
// directory dir of the project; says: doctor's line for event is
// "fires ✓"; fired: the guard saw that call. The run may fail (an agent
// that refuses its settings file may stop): only the guard's log
// decides. When the guard ran, its refusal must have held.
func doctorAndGuard(t *testing.T, a agent, event, dir string) (says, fired bool) {
	t.Helper()
	h := a.base()
	out, _ := h.doctor(t, h.bin, os.Getenv("PATH"))
	says = strings.Contains(out, "      "+event+": fires ✓\n")
	marker, command := h.guardTarget(t, "rm -rf", dir)
	fake := a.newFake(t, guardPrompt(dir, command))
	r := a.run(t, fake)
	fired = fileContains(t, filepath.Join(h.project, ".hermes", "guard.log"), marker)
	_, err := os.Stat(filepath.Join(marker, "keep.txt"))
	kept := err == nil
	switch {
	case fired && !kept:
		t.Errorf("the guard saw %q but the directory is gone", command)
	case !fired:
		t.Logf("the guard never saw %q; the directory was %s; the run ended: %v; stderr:\n%s",
			command, map[bool]string{true: "kept", false: "deleted"}[kept], r.err, clip(r.stderr, 3000))
	}
	return says, fired
}
