//go:build unix

package cli

import (
	"context"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// TestRulesAloneIgnoreSignals: a firing whose entries are all rules starts
// no process, and a signal must not kill it with no answer, which an
// agent reads as no objection (a gating call let through). Skipping the
// guard for it, to save os/signal's threads, was tried once and reverted;
// dispatchOnce now ignores SIGINT, SIGTERM and SIGHUP before it fires
// (without the guard's threads), for the rest of the process: a SIGTERM
// sent to it then is survived. A program it starts afterwards (export's
// flush) gets SIGTERM's default action back (childSignals). Run in a
// process of its own, the test binary again.
func TestRulesAloneIgnoreSignals(t *testing.T) {
	if os.Getenv("HERMES_HOOKS_TEST_RULES_ALONE") == "" {
		cmd := exec.Command(os.Args[0], "-test.run=^TestRulesAloneIgnoreSignals$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), "HERMES_HOOKS_TEST_RULES_ALONE=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestRulesAloneIgnoreSignals") {
			t.Fatalf("%v\n%s", err, out)
		}
		return
	}
	var guards, ignored atomic.Int32
	testGuard = func() { guards.Add(1) }
	testIgnored = func() {
		if signal.Ignored(syscall.SIGTERM) && signal.Ignored(syscall.SIGINT) && signal.Ignored(syscall.SIGHUP) {
			ignored.Add(1)
		}
	}
	home := t.TempDir()
	t.Setenv("HERMES_HOME", home)
	path := filepath.Join(home, "config.yaml")
	rules := "hooks:\n  pre_tool_call:\n    - rule: 'args.command matches \"rm\"'\n      decision: block\n      message: no\n"
	if err := os.WriteFile(path, []byte(rules), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, err := hookconfig.Load(path, hookconfig.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	a := &App{Out: io.Discard, Err: io.Discard, NoSubreap: true}
	ev, _ := protocol.Lookup("pre_tool_call")
	f := protocol.NewFiring(ev, "", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "rm x"}})
	o, err := a.dispatchOnce(context.Background(), cfg, t.TempDir(), &f, false, "")
	if err != nil || o.Decision != protocol.DecisionBlock {
		t.Fatalf("%v, %+v", err, o)
	}
	if guards.Load() != 0 || ignored.Load() != 1 {
		t.Fatalf("guard set up %d times, signals ignored %d times; want 0 and 1", guards.Load(), ignored.Load())
	}
	// A real SIGTERM now is survived (its default action would end the
	// test binary here).
	if err := syscall.Kill(os.Getpid(), syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "linux" {
		return
	}
	sigIgn := func() uint64 {
		out, err := exec.Command("sh", "-c", "grep SigIgn /proc/self/status").Output()
		if err != nil {
			t.Fatal(err)
		}
		v, err := strconv.ParseUint(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(out)), "SigIgn:")), 16, 64)
		if err != nil {
			t.Fatalf("%q: %v", out, err)
		}
		return v
	}
	const term = 1 << (syscall.SIGTERM - 1)
	if sigIgn()&term == 0 {
		t.Fatal("a program started after the firing does not inherit SIGTERM ignored: this test checks nothing")
	}
	a.childSignals()
	if sigIgn()&term != 0 {
		t.Error("a program started after childSignals still has SIGTERM ignored")
	}
}
