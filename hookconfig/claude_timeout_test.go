package hookconfig

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// A Claude settings handler's timeout is seconds, and fractions are
// allowed (the spec's §1.2): 0.5 is half a second, not "below 1s, the
// default". Zero or less is no timeout Claude Code could keep: the default,
// with a warning. Above 600 s stays clamped to 600 s, a documented
// difference (docs/agents.md: "at most 600 s"). Hermes YAML keeps Hermes'
// int() rule: 0.5 is 0, below 1, so Hermes' default.
func TestClaudeFractionalTimeouts(t *testing.T) {
	entries, warnings, err := parseClaudeSettings([]byte(`{"hooks":{"PreToolUse":[{"hooks":[
	  {"type":"command","command":"half","timeout":0.5},
	  {"type":"command","command":"tiny","timeout":0.05},
	  {"type":"command","command":"onehalf","timeout":1.5},
	  {"type":"command","command":"zero","timeout":0},
	  {"type":"command","command":"negative","timeout":-2},
	  {"type":"command","command":"big","timeout":900}]}]}}`), "s.json")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]time.Duration{}
	for _, e := range entries {
		got[e.Command] = e.Timeout
	}
	want := map[string]time.Duration{"half": 500 * time.Millisecond, "tiny": 50 * time.Millisecond, "onehalf": 1500 * time.Millisecond,
		"zero": 600 * time.Second, "negative": 600 * time.Second, "big": 600 * time.Second}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: timeout %v, want %v", k, got[k], w)
		}
	}
	ws := fmt.Sprint(warnings)
	for _, bad := range []string{"0.5s", "0.05s", "1.5s"} {
		if strings.Contains(ws, "timeout="+bad) {
			t.Errorf("a fractional timeout warned: %v", warnings)
		}
	}
	for _, w := range []string{"timeout=0s is not above 0s; using default 600s", "timeout=-2s is not above 0s; using default 600s", "timeout=900s exceeds max 600s"} {
		if !strings.Contains(ws, w) {
			t.Errorf("warnings %v lack %q", warnings, w)
		}
	}
	cfg := mustParse(t, "hooks:\n  pre_tool_call:\n    - command: h\n      timeout: 0.5\n")
	if cfg.Entries[0].Timeout != 60*time.Second || !strings.Contains(fmt.Sprint(cfg.Warnings), "timeout must be >=1 (got 0); using default 60s") {
		t.Fatalf("Hermes: %v %v", cfg.Entries[0].Timeout, cfg.Warnings)
	}
}
