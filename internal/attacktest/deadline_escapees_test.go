//go:build linux

package attacktest

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
	"github.com/hermes-hooks/hermes-hooks/internal/testbin"
)

// escapeeCount is how many setsid'd processes the guard below leaves. The
// reaper used to kill them one by one, waiting for each to die before the
// next (a millisecond's sleep at least, some 13 ms each on a loaded 2-core
// machine), so 400 of them took longer than the margin `hook` keeps before
// a 3 s agent deadline (0.3 s): it answered after 3.5 s. Now they are all
// killed first and waited for together.
const escapeeCount = 400

// escapeeLastTimeout is the longest agent deadline the test tries.
const escapeeLastTimeout = 24 * time.Second

// A hung guard that left many escaped descendants is still refused before
// the agent's deadline, and they all die: the agent, once its deadline
// passed, lets the call through whatever `hook` answers later.
func TestManyEscapeesDoNotDelayTheRefusal(t *testing.T) {
	testbin.SkipUnlessLinuxFeatures(t, "a child subreaper: a descendant that left its hook's process group (setsid) is not tracked")
	proctest.GrowTimeout(t, 3*time.Second, escapeeLastTimeout, func(agentTimeout time.Duration) bool {
		e := newEnv(t)
		e.write("guard.sh", "#!/bin/sh\ni=0\nwhile [ $i -lt "+strconv.Itoa(escapeeCount)+" ]; do\n"+
			"  setsid sleep 3600 </dev/null >/dev/null 2>&1 &\n  echo $! >> \"$WORK/escapees\"\n  i=$((i + 1))\ndone\n"+
			": > \"$WORK/ready\"\nexec sleep 3600\n", 0o755)
		e.write("home/config.yaml", "hooks:\n  PreToolUse:\n    - command: ./guard.sh\n      dialect: claude\n      timeout: 600\n      fail_closed: true\n", 0o644)
		e.run("", "approve", "./guard.sh")
		c := e.cmd(`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"}}`,
			"hook", "claude", "PreToolUse", "--no-server", "--agent-timeout", strconv.Itoa(int(agentTimeout.Seconds())))
		var out, errb bytes.Buffer
		c.Stdout, c.Stderr = &out, &errb
		start := time.Now()
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		finish(t, c)
		elapsed := time.Since(start)
		data, _ := os.ReadFile(e.path("escapees"))
		pids := strings.Fields(string(data))
		t.Cleanup(func() { killAll(pids) })
		if _, err := os.Stat(e.path("ready")); err != nil {
			return false // the guard had not left them all yet
		}
		if !strings.Contains(out.String(), `"permissionDecision":"deny"`) {
			t.Errorf("hook claude answered %q; want Claude Code's deny\nstderr: %s", out.String(), errb.String())
		}
		if elapsed >= agentTimeout {
			// Killing 400 processes costs some 0.1 s of the 0.3 s margin
			// kept before a 3 s deadline (each kill runs the victim's
			// exit), several times that on a loaded machine: a late answer
			// there is tried again with a longer deadline, whose margin is
			// a tenth of it. Only lateness at the longest (a 2.4 s margin)
			// fails: the old per-escapee wait took 5 s there.
			if agentTimeout < escapeeLastTimeout {
				t.Logf("hook claude answered after %v, past a %v deadline (a loaded machine?)", elapsed.Round(time.Millisecond), agentTimeout)
				killAll(pids)
				return false
			}
			t.Errorf("hook claude answered after %v, past the agent's deadline of %v: the agent had let the call through", elapsed.Round(time.Millisecond), agentTimeout)
		}
		var left int
		deadline := time.Now().Add(30 * time.Second) // a hang guard, shared
		for _, p := range pids {
			pid, _ := strconv.Atoi(p)
			if proctest.AwaitExit(pid, max(time.Until(deadline), time.Millisecond)) != nil {
				left++
			}
		}
		if left > 0 {
			t.Errorf("%d of the guard's %d escapees outlived the refusal", left, len(pids))
		}
		return true
	})
}

// killAll kills the processes whose pids are listed.
func killAll(pids []string) {
	for _, p := range pids {
		if pid, _ := strconv.Atoi(p); pid > 0 {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
