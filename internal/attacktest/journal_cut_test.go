//go:build linux

package attacktest

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// A guard that does not answer before the agent's deadline makes `hook`
// refuse the call, and the refusal is journaled. The dispatch it cut
// short is journaled too (its hooks did run), but its outcome was no
// answer: the record must say so. Before, the journal held a plain
// "none" record for the firing beside the "block" the agent was given,
// so `log --decision none` (or anything counting records) read a guard
// that hangs as a call let through, and replay fired the firing twice.
func TestCutDispatchIsNoAnswerOnTheJournal(t *testing.T) {
	e := newEnv(t)
	e.write("slow.sh", "#!/bin/sh\ncat >/dev/null\nexec sleep 3600\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+e.path("slow.sh")+
		"\n      timeout: 600\njournal:\n  include_payload: true\n", 0o644)
	e.write("none.yaml", "hooks: {}\n", 0o644)
	e.run("", "approve", e.path("slow.sh"))
	c := e.cmd(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
		"hook", "claude", "PreToolUse", "--agent-timeout", "1")
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	finish(t, c)
	if !strings.Contains(out.String(), `"permissionDecision":"deny"`) {
		t.Fatalf("hook claude answered %q; want a deny\nstderr: %s", out.String(), errb.String())
	}
	var answers []string
	for _, line := range strings.Split(strings.TrimSpace(e.run("", "log", "--json")), "\n") {
		var r struct {
			Decision string `json:"decision"`
			Cut      bool   `json:"cut"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		if !r.Cut {
			answers = append(answers, r.Decision)
		}
	}
	if len(answers) != 1 || answers[0] != "block" {
		t.Errorf("the journal's answers for the firing are %q; want only the refusal the agent got, [block]", answers)
	}
	if l := e.run("", "log", "--decision", "none"); l != "" && !strings.Contains(l, "cut short") {
		t.Errorf("log shows the cut dispatch as a plain decision: %s", l)
	}
	// replay fires the firing once: the refusal's record, not the cut one.
	var rep struct {
		Events int `json:"events"`
	}
	if err := json.Unmarshal([]byte(e.run("", "replay", "--json", "--config", e.path("none.yaml"))), &rep); err != nil || rep.Events != 1 {
		t.Errorf("replay selected %d records of the one firing; want 1", rep.Events)
	}
}
