//go:build e2e

package e2e

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// codexProbeEvents are the event names a Codex hooks.json may name: every
// name of Codex's own hook event enum read from its binary, plus names
// other agents (and rumours of newer Codex releases) use. A name Codex
// does not know is dropped by it with a warning; the probe shows which it
// knows (hooks/list) and which it fires in one ordinary run.
var codexProbeEvents = []string{
	"PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit",
	"SessionStart", "SessionEnd", "SubagentStart", "SubagentStop", "Stop",
	"PreCompact", "PostCompact", "Interrupt",
	"PreModelRequest", "PostModelRequest", "PostModelResponse",
	"StopFailure", "UserInstructions", "Notification", "PostToolUseFailure",
}

// codexUnserved are the Codex events hermes-hooks deliberately does not
// install, each with why: a run that fires one of them is no failure of
// the install, anything else Codex fires is.
var codexUnserved = map[string]string{
	// Interrupt (Esc on a running turn) carries only turn_id and has no
	// canonical twin; no Hermes or Claude Code hook could act on it.
	"Interrupt": "no canonical event",
}

// TestCodexEventCoverage runs Codex once with a logging hook for every
// event name it might fire (in the user's layer, so the project's install
// is not touched) and checks that install codex registers every event
// Codex knows and fires, so that a Codex release adding a hook event shows
// up here instead of as a guard that silently never runs.
func TestCodexEventCoverage(t *testing.T) {
	h := newCodexHarness(t)

	logDir := filepath.Join(h.root, "probe")
	mustMkdir(t, logDir)
	events := map[string]any{}
	for _, ev := range codexProbeEvents {
		cmd := "cat > " + shellQuote(filepath.Join(logDir, ev+".json"))
		events[ev] = []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": cmd, "timeout": 10}}}}
	}
	data, err := json.MarshalIndent(map[string]any{"hooks": events}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(h.codexHome, "hooks.json"), string(data), 0o644)

	// Known: the events Codex lists (hooks/list drops names it does not
	// know); each is trusted so that it runs.
	rpc := h.startAppServer(t)
	var res struct {
		Data []struct {
			Hooks []codexHook `json:"hooks"`
		} `json:"data"`
	}
	rpc.call(t, "hooks/list", map[string]any{"cwds": []string{h.project}}, &res)
	trusted := map[string]any{}
	known := map[string]bool{}
	for _, d := range res.Data {
		for _, hk := range d.Hooks {
			if strings.Contains(hk.Command, logDir) {
				trusted[hk.Key] = map[string]any{"trusted_hash": hk.CurrentHash}
				// hooks/list names events in camelCase (preToolUse).
				known[strings.ToUpper(hk.EventName[:1])+hk.EventName[1:]] = true
			}
		}
	}
	rpc.call(t, "config/batchWrite", map[string]any{"edits": []any{map[string]any{
		"keyPath": "hooks.state", "mergeStrategy": "upsert", "value": trusted,
	}}}, nil)
	rpc.close(t)
	t.Logf("Codex knows these hook events (hooks/list): %s", strings.Join(slices.Sorted(maps.Keys(known)), " "))
	if len(known) == 0 {
		t.Fatal("Codex lists none of the probe's hooks: the probe proves nothing")
	}

	fake := h.newFake(t, script{Prompt: "E2E-PROMPT-probe: list the files.", Command: "ls"})
	h.requireSuccess(t, h.run(t, fake))
	var fired []string
	for _, ev := range codexProbeEvents {
		if payload, err := os.ReadFile(filepath.Join(logDir, ev+".json")); err == nil {
			fired = append(fired, ev)
			t.Logf("Codex fired %s: %s", ev, clip(string(payload), 600))
		}
	}
	t.Logf("Codex fired in one run: %s", strings.Join(fired, " "))
	if !slices.Contains(fired, "PreToolUse") {
		t.Fatalf("Codex did not fire PreToolUse around the scripted shell call: the probe proves nothing")
	}

	codex, _ := agents.Lookup("codex")
	installed := codex.HookFile.Events
	for ev := range known {
		if _, why := codexUnserved[ev]; why {
			continue
		}
		// A known event install does not register is a hook point no
		// hermes-hooks guard can use under Codex.
		if !slices.Contains(installed, ev) {
			t.Errorf("Codex knows the hook event %s (fired in this run: %v) but install codex does not register it", ev, slices.Contains(fired, ev))
		}
	}
}
