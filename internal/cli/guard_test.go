package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A firing whose entries are all rules starts no process, but dispatchOnce
// still sets up its signal guard: without it a SIGTERM mid-dispatch kills
// the process with no answer, which an agent reads as no objection (a
// gating call let through). Skipping it for rules alone, to save
// os/signal's threads, was tried and reverted.
func TestGuardForEveryFiringWithEntries(t *testing.T) {
	var calls atomic.Int32
	testGuard = func() { calls.Add(1) }
	defer func() { testGuard = nil }()
	home := t.TempDir()
	t.Setenv("HERMES_HOME", home)
	t.Setenv("HERMES_ACCEPT_HOOKS", "1")
	rules := "hooks:\n  pre_tool_call:\n    - rule: 'args.command matches \"rm\"'\n      decision: block\n      message: no\n" +
		"    - rule: 'tool_name == \"x\"'\n      decision: block\n      message: no\n"
	command := rules + "    - command: 'cat >/dev/null; echo {}'\n"
	ev, _ := protocol.Lookup("pre_tool_call")
	for _, c := range []struct {
		name, config string
		want         int32
	}{{"rules only", rules, 1}, {"a command too", command, 1}} {
		calls.Store(0)
		path := filepath.Join(home, "config.yaml")
		if err := os.WriteFile(path, []byte(c.config), 0o600); err != nil {
			t.Fatal(err)
		}
		cfg, err := hookconfig.Load(path, hookconfig.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		a := &App{Out: io.Discard, Err: io.Discard, NoSubreap: true, AcceptHooks: true}
		f := protocol.NewFiring(ev, "", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}})
		o, err := a.dispatchOnce(context.Background(), cfg, t.TempDir(), &f, false, "")
		if err != nil || len(o.Hooks) != len(cfg.Entries) {
			t.Fatalf("%s: %v, %+v", c.name, err, o.Hooks)
		}
		if n := calls.Load(); n != c.want {
			t.Errorf("%s: the guard was set up %d times, want %d", c.name, n, c.want)
		}
	}
}
