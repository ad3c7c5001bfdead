package agenthooks_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// workerDispatcher runs one pre_tool_call hook (command, run from the
// agent-hooks directory) as a worker, in-process: the way serve and Go
// hosts run worker entries.
func workerDispatcher(t *testing.T, command string, env ...string) *dispatcher.Dispatcher {
	t.Helper()
	cfg, err := hookconfig.ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - command: "+command+"\n      worker: true\n      workers: 2\n"), "worker.yaml")
	if err != nil {
		t.Fatal(err)
	}
	wd, _ := os.Getwd()
	d, err := dispatcher.New(cfg, dispatcher.Options{Gate: dispatcher.AllowAll, Cwd: wd, Env: append(os.Environ(), env...)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func askTerminal(t *testing.T, d *dispatcher.Dispatcher, command string) (decision, message string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard
	defer cancel()
	o, err := d.Dispatch(ctx, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": command}})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range o.Hooks {
		if h.Error != "" || h.TimedOut {
			t.Fatalf("hook failed: %+v", h)
		}
	}
	return string(o.Decision), o.Message
}

// py-guard.py (through lib/python/hermes_hook.py) works one-shot and as a worker,
// and as a worker loads its rules once: the rules file is read at start,
// so an edit to it shows only in a new worker.
func TestPyGuardOneShotAndWorker(t *testing.T) {
	rules := filepath.Join(t.TempDir(), "rules")
	if err := os.WriteFile(rules, []byte("# one rule\n\\bshutdown\\b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// One-shot, through the binary, with the example's built-in rules.
	e := newHookEnv(t, "  pre_tool_call:\n    - command: "+filepath.Join(repoRoot, "agent-hooks", "py-guard.py")+"\n")
	e.run(t, nil, "approve", "--all")
	o := e.dispatch(t, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "rm -rf /"}})
	if o.Decision != "block" || !strings.Contains(o.Message, "py-guard:") {
		t.Fatalf("one-shot: %+v", o)
	}

	d := workerDispatcher(t, "./py-guard.py", "HERMES_GUARD_RULES="+rules)
	if dec, msg := askTerminal(t, d, "sudo shutdown now"); dec != "block" || !strings.Contains(msg, `\bshutdown\b`) {
		t.Fatalf("worker: %s %q", dec, msg)
	}
	if dec, _ := askTerminal(t, d, "ls"); dec != "none" {
		t.Fatalf("worker let ls through? %s", dec)
	}
	// Loaded once: the running worker keeps the rules it started with.
	if err := os.WriteFile(rules, []byte("\\bls\\b\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if dec, _ := askTerminal(t, d, "ls"); dec != "none" {
		t.Fatalf("the worker re-read its rules: %s", dec)
	}
	d.StopWorkers()
	if dec, _ := askTerminal(t, d, "ls"); dec != "block" {
		t.Fatalf("a new worker did not load the new rules: %s", dec)
	}
}

// lib/node/hermes-hook.mjs: the same handler one-shot and as a worker,
// including the exit-status reply.
func TestNodeHelperWorker(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "guard.mjs")
	lib := filepath.Join(repoRoot, "agent-hooks", "lib", "node", "hermes-hook.mjs")
	body := "#!/usr/bin/env node\nimport { serve, Exit } from " + "\"" + lib + "\"" + `;
serve((p) => {
  const cmd = p.tool_input?.command ?? "";
  if (cmd.includes("rm -rf")) return { action: "block", message: "node guard: " + cmd };
  if (cmd.includes("exit2")) throw new Exit(2, "node exit 2");
  return null;
});
`
	if err := proctest.WriteExecutable(script, []byte(body)); err != nil {
		t.Fatal(err)
	}
	d := workerDispatcher(t, script)
	if dec, msg := askTerminal(t, d, "rm -rf /tmp/x"); dec != "block" || msg != "node guard: rm -rf /tmp/x" {
		t.Fatalf("worker: %s %q", dec, msg)
	}
	if dec, _ := askTerminal(t, d, "ls"); dec != "none" {
		t.Fatalf("worker: ls %s", dec)
	}
	// The exit-status reply: exit 2 with stderr blocks, as a one-shot
	// hook's would.
	if dec, msg := askTerminal(t, d, "exit2"); dec != "block" || msg != "node exit 2" {
		t.Fatalf("worker: exit2 %s %q", dec, msg)
	}
	// One-shot through the binary.
	e := newHookEnv(t, "  pre_tool_call:\n    - command: "+script+"\n")
	e.run(t, nil, "approve", "--all")
	o := e.dispatch(t, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "rm -rf /"}})
	if o.Decision != "block" || o.Message != "node guard: rm -rf /" {
		t.Fatalf("one-shot: %+v", o)
	}
}
