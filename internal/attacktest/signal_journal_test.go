//go:build linux

package attacktest

import (
	"bytes"
	"os"
	"strings"
	"syscall"
	"testing"
)

// A gating call whose dispatch a signal cut short is refused, and the
// refusal is on the journal the config names, as a late one's is: the
// journal held only the dispatch's "cut short: no answer", and a refusal
// the agent was given nowhere.
func TestSignalledHookRefusalIsJournaled(t *testing.T) {
	e := newEnv(t)
	e.write("guard.sh", sleepingGuard, 0o755)
	e.write("home/config.yaml", guardConfig+"journal:\n  path: mine.jsonl\n", 0o644)
	e.run("", "approve", "./guard.sh")
	c := e.cmd(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`, "hook", "claude")
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	readPid(t, e.path("guard.pid"))
	if err := c.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	finish(t, c)
	if !strings.Contains(out.String(), `"permissionDecision":"deny"`) {
		t.Fatalf("hook claude answered %q; want Claude Code's deny\nstderr: %s", out.String(), errb.String())
	}
	data, _ := os.ReadFile(e.path("home/mine.jsonl"))
	var refusal bool
	for _, line := range strings.Split(string(data), "\n") {
		refusal = refusal || strings.Contains(line, `"decision":"block"`) && strings.Contains(line, "SIGTERM")
	}
	if !refusal {
		t.Errorf("the config's journal holds no record of the refusal naming SIGTERM:\n%s", data)
	}
}
