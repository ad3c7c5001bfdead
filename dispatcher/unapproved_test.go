package dispatcher

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Outcome.Unapproved counts the repository's hooks a firing skipped for
// want of an approval of what they are now: never approved (passed over by
// the screen before their matchers ran), changed since approval (skipped by
// the gate). The user's own unapproved hooks and the repository's approved
// ones are not counted, nor are hooks of other events, and no hook reply
// changes the count (issue 32, item 2).
func TestOutcomeCountsUnapprovedRepositoryHooks(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	hooksDir := filepath.Join(repo, ".hermes", "hooks")
	if err := os.MkdirAll(hooksDir, 0o755); err != nil {
		t.Fatal(err)
	}
	script(t, hooksDir, "ok.sh", `echo '{"action":"block","message":"no"}'`)
	script(t, hooksDir, "changed.sh", `exit 0`)
	script(t, hooksDir, "never.sh", `exit 0`)
	script(t, hooksDir, "other.sh", `exit 0`)
	writeFile(t, filepath.Join(repo, ".hermes", "hooks.yaml"), "hooks:\n  pre_tool_call:\n"+
		"    - command: sh .hermes/hooks/ok.sh\n    - command: sh .hermes/hooks/changed.sh\n    - command: sh .hermes/hooks/never.sh\n"+
		"  post_tool_call:\n    - command: sh .hermes/hooks/other.sh\n")
	global := filepath.Join(root, "global.yaml")
	writeFile(t, global, "hooks:\n  pre_tool_call:\n    - command: /bin/true\n")
	cfg, err := hookconfig.Load(global, hookconfig.LoadOptions{ProjectDir: repo})
	if err != nil {
		t.Fatal(err)
	}
	store := consent.NewStore(filepath.Join(root, "home"))
	for _, e := range cfg.Entries {
		if strings.Contains(e.Command, "ok.sh") || strings.Contains(e.Command, "changed.sh") {
			if _, err := store.ApproveHook(ConsentRequest(e, repo, nil)); err != nil {
				t.Fatal(err)
			}
		}
	}
	// The body sh runs (on Windows changed is its .cmd twin).
	if err := os.WriteFile(filepath.Join(hooksDir, "changed.sh"), []byte("#!/bin/sh\necho changed\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	var warned []string
	d, err := New(cfg, Options{Gate: ConsentGate(&consent.Policy{Store: store, Warn: func(m string) { warned = append(warned, m) }}), Cwd: repo})
	if err != nil {
		t.Fatal(err)
	}
	fields := map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}, "cwd": repo}
	o := dispatch(t, d, "pre_tool_call", fields)
	if o.Unapproved != 2 {
		t.Fatalf("Unapproved = %d, want 2 (never.sh, changed.sh); warnings %q; outcome %+v", o.Unapproved, warned, o)
	}
	if o.Decision != protocol.DecisionBlock || o.Message != "no" {
		t.Errorf("the count changed the decision: %+v", o)
	}
	if !strings.Contains(string(protocol.AppendOutcome(nil, &o, pyjson.Compact)), `"unapproved":2,"hooks"`) {
		t.Errorf("outcome JSON lacks the count: %s", protocol.AppendOutcome(nil, &o, pyjson.Compact))
	}
	// Only the screen's: every hook of the event passed over unheard.
	if o := dispatch(t, d, "post_tool_call", fields); o.Unapproved != 1 {
		t.Errorf("post_tool_call Unapproved = %d, want 1", o.Unapproved)
	}
	// An event without a repository hook counts none.
	if o := dispatch(t, d, "pre_llm_call", fields); o.Unapproved != 0 {
		t.Errorf("pre_llm_call Unapproved = %d, want 0", o.Unapproved)
	}
}
