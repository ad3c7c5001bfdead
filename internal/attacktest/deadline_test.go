//go:build linux

package attacktest

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// Issue 31, item 4: the agent's deadline. Every agent lets a tool call
// through when its hook times out, so a guard that answers after the
// agent gave up guards nothing. A fail_closed Claude-dialect guard with
// timeout 600 used to be waited for the full 600 s (the agent, told 3 s,
// had long gone on); `hook claude` now answers a margin before the
// agent's deadline, refusing the call, and kills the guard's tree.
func TestHungGuardRefusedBeforeTheAgentsDeadline(t *testing.T) {
	// 3 s first; a machine too loaded to start the guard and answer within
	// the agent's timeout proves nothing either way, and is given twice as
	// long.
	proctest.GrowTimeout(t, 3*time.Second, 24*time.Second, func(agentTimeout time.Duration) bool {
		e := newEnv(t)
		// The guard moves the config's journal once the dispatch has
		// loaded it: the refusal must be journaled by the config the
		// dispatch ran under, not by a second load after the deadline.
		e.write("guard.sh", twoHelpers+"sed -i 's/late.jsonl/reloaded.jsonl/' \"$WORK/home/config.yaml\"\necho $$ > \"$WORK/guard.pid\"\nexec sleep 3600\n", 0o755)
		e.write("home/config.yaml", "journal:\n  path: ../late.jsonl\nhooks:\n  PreToolUse:\n    - command: ./guard.sh\n      dialect: claude\n      timeout: 600\n      fail_closed: true\n", 0o644)
		e.run("", "approve", "./guard.sh")
		c := e.cmd(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
			"hook", "claude", "PreToolUse", "--agent-timeout", strconv.Itoa(int(agentTimeout.Seconds())))
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		start := time.Now()
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		finish(t, c) // a 60 s hang guard: the old code waited 600 s
		elapsed := time.Since(start)
		if _, err := os.Stat(e.path("guard.pid")); err != nil || elapsed >= agentTimeout {
			return false // the guard had not started, or we were too slow to tell
		}
		if !strings.Contains(out.String(), `"permissionDecision":"deny"`) || !strings.Contains(out.String(), "guard ./guard.sh did not answer in time") {
			t.Errorf("hook claude answered %q; want Claude Code's deny saying guard ./guard.sh did not answer in time\nstderr: %s", out.String(), errb.String())
		}
		// The refusal is on the journal the dispatch's config named.
		if j, err := os.ReadFile(e.path("late.jsonl")); err != nil || !strings.Contains(string(j), "did not answer in time") {
			t.Errorf("the configured journal holds no record of the refusal (%v):\n%s", err, j)
		}
		guard := readPid(t, e.path("guard.pid"))
		ingroup, escaped := helperPids(t, e)
		want := map[string]int{"the guard": guard, "its helper in its process group": ingroup, "its setsid helper": escaped}
		if !escapeesKilled {
			delete(want, "its setsid helper")
		}
		for name, pid := range want {
			if err := proctest.AwaitExit(pid, 30*time.Second); err != nil {
				t.Errorf("%s (%d) outlived the refusal: %v", name, pid, err)
			}
		}
		return true
	})
}
