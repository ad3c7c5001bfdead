package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A firing with a command sets up dispatchOnce's signal guard beside the
// dispatch (only a hook that leaves the process waits for it): the test
// waits for it, bounded, after the dispatch. A firing of rules alone
// ignores the signals instead (TestRulesAloneIgnoreSignals, in a process
// of its own: the ignore lasts as long as the process).
func TestGuardForEveryFiringWithEntries(t *testing.T) {
	var calls atomic.Int32
	set := make(chan struct{}, 4)
	testGuard = func() { calls.Add(1); set <- struct{}{} }
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
	}{{"a command too", command, 1}} {
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
		select {
		case <-set:
		case <-time.After(time.Minute):
			t.Fatalf("%s: the guard was not set up within a minute", c.name)
		}
		if n := calls.Load(); n != c.want {
			t.Errorf("%s: the guard was set up %d times, want %d", c.name, n, c.want)
		}
	}
}
