//go:build linux

package attacktest

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
	"github.com/hermes-hooks/hermes-hooks/internal/testbin"
)

// chainDepth is deeper than the rounds the reaper used to make: each round
// killed the escapees that were its children, and the child of a killed one
// became its child only once that one was dead, so a chain of setsid'd
// processes lost one link per round and its tail outlived everything.
const chainDepth = 12

// link is one process of the chain: it starts the next in a session of its
// own, then sleeps in its place.
var link = "#!/bin/sh\n" +
	"echo $$ >> \"$WORK/chain.pids\"\n" +
	"if [ \"$1\" -lt " + strconv.Itoa(chainDepth) + " ]; then setsid \"$WORK/link.sh\" $(($1 + 1)) </dev/null >/dev/null 2>&1 & fi\n" +
	"exec sleep 3600\n"

// A failed hook's escaped descendants die with it however deep they chain.
func TestEscapedChainKilledWithItsHook(t *testing.T) {
	testbin.SkipUnlessLinuxFeatures(t, "a child subreaper: a descendant that left its hook's process group (setsid) is not tracked")
	e := newEnv(t)
	e.write("link.sh", link, 0o755)
	// The hook waits until the whole chain is up, then fails.
	e.write("hook.sh", "#!/bin/sh\nsetsid \"$WORK/link.sh\" 0 </dev/null >/dev/null 2>&1 &\n"+
		"until [ \"$(wc -l < \"$WORK/chain.pids\" 2>/dev/null)\" -ge "+strconv.Itoa(chainDepth+1)+" ]; do sleep 0.01; done\nexit 1\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: ./hook.sh\n", 0o644)
	e.run("", "approve", "./hook.sh")
	e.run(`{"tool_name":"terminal"}`, "dispatch", "pre_tool_call")
	data, err := os.ReadFile(e.path("chain.pids"))
	if err != nil {
		t.Fatal(err)
	}
	pids := strings.Fields(string(data))
	if len(pids) != chainDepth+1 {
		t.Fatalf("the chain has %d links, want %d", len(pids), chainDepth+1)
	}
	t.Cleanup(func() {
		for _, p := range pids {
			if pid, _ := strconv.Atoi(p); pid > 0 {
				syscall.Kill(pid, syscall.SIGKILL)
			}
		}
	})
	var left []string
	deadline := time.Now().Add(30 * time.Second) // a hang guard, shared
	for _, p := range pids {
		pid, _ := strconv.Atoi(p)
		if err := proctest.AwaitExit(pid, max(time.Until(deadline), time.Millisecond)); err != nil {
			left = append(left, p)
		}
	}
	if len(left) > 0 {
		t.Fatalf("%d of the %d links of the failed hook's setsid chain outlived the dispatch: %v", len(left), len(pids), left)
	}
}
