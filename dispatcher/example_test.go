package dispatcher_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
)

// A Go host loads the config, gates hooks through the consent allowlist,
// and asks before every tool call.
func Example() {
	home, _ := os.MkdirTemp("", "hermes-home-")
	defer os.RemoveAll(home)

	// A hook that blocks rm -rf, and a config that runs it before terminal calls.
	hook := filepath.Join(home, "block-rm-rf.sh")
	_ = os.WriteFile(hook, []byte("#!/bin/sh\ngrep -q 'rm -rf' && echo '{\"action\":\"block\",\"message\":\"rm -rf is not allowed\"}'\nexit 0\n"), 0o755)
	config := filepath.Join(home, "config.yaml")
	_ = os.WriteFile(config, []byte("hooks:\n  pre_tool_call:\n    - command: "+hook+"\n      matcher: terminal\n"), 0o644)

	cfg, err := dispatcher.Load(config, dispatcher.LoadOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	store := consent.NewStore(home)
	_, _ = store.Approve("pre_tool_call", hook) // what `hermes-hooks approve` records
	d, err := dispatcher.New(cfg, dispatcher.Options{
		Gate:     dispatcher.ConsentGate(&consent.Policy{Store: store}, home),
		Sessions: dispatcher.NewMemorySessions(),
	})
	if err != nil {
		fmt.Println(err)
		return
	}

	for _, command := range []string{"ls -la", "rm -rf /"} {
		outcome, err := d.Dispatch(context.Background(), "pre_tool_call", map[string]any{
			"tool_name":  "terminal",
			"args":       map[string]any{"command": command},
			"session_id": "session-1",
		})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s → %s", command, outcome.Decision)
		if outcome.Blocked() {
			fmt.Printf(": %s", outcome.Message)
		}
		fmt.Println()
	}
	// Output:
	// ls -la → none
	// rm -rf / → block: rm -rf is not allowed
}
