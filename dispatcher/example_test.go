package dispatcher_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/sessions"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
)

// The whole host path: load the config, gate hooks through the consent
// policy, build the dispatcher once, and ask before every tool call.
func Example() {
	home := exampleHome() // a config.yaml whose pre_tool_call hook blocks rm -rf, approved
	defer os.RemoveAll(home)

	cfg, err := hookconfig.Load(filepath.Join(home, "config.yaml"), hookconfig.LoadOptions{})
	if err != nil {
		panic(err)
	}
	policy := consent.NewPolicy(consent.NewStore(home), consent.PolicyOptions{})
	d, err := dispatcher.New(cfg, dispatcher.Options{Gate: dispatcher.ConsentGate(policy), Sessions: sessions.NewMemory()})
	if err != nil {
		panic(err)
	}
	for _, command := range []string{"ls -la", "rm -rf /"} {
		outcome, _ := d.Dispatch(context.Background(), "pre_tool_call", map[string]any{
			"tool_name": "terminal", "args": map[string]any{"command": command}, "session_id": "s1"})
		fmt.Printf("%s → %s %q\n", command, outcome.Decision, outcome.Message)
	}
	// Output:
	// ls -la → none ""
	// rm -rf / → block "rm -rf is not allowed"
}

// exampleHome writes the example's Hermes home: a hook script, a config
// that runs it before terminal calls, and its approval (what `hermes-hooks
// approve` records).
func exampleHome() string {
	home, _ := os.MkdirTemp("", "hermes-home-")
	hook := filepath.Join(home, "block-rm-rf.sh")
	_ = os.WriteFile(hook, []byte("#!/bin/sh\ngrep -q 'rm -rf' && echo '{\"action\":\"block\",\"message\":\"rm -rf is not allowed\"}'\nexit 0\n"), 0o755)
	if runtime.GOOS == "windows" {
		// The hook's .cmd twin: this test binary runs the body
		// (hookscript_test.go).
		hook, _ = dispatcher.WriteTwin(filepath.Join(home, "block-rm-rf.cmd"), hook)
	}
	_ = os.WriteFile(filepath.Join(home, "config.yaml"), []byte("hooks:\n  pre_tool_call:\n    - command: "+hook+"\n      matcher: terminal\n"), 0o644)
	_, _ = consent.NewStore(home).Approve("pre_tool_call", hook)
	return home
}
