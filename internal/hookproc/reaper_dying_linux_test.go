//go:build linux && !hermes_portable

package hookproc

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// A hook killed at an agent's deadline may not have died when its run
// ends: result reaps it in the background, and a one-shot dispatch exits
// right after answering. Its escapees are still its children until it
// dies; KillEscaped at exit must find them there, or they are handed to
// init after the last look and outlive the refusal (seen once as "400 of
// 400 escapees outlived the refusal" in internal/attacktest, on a loaded
// machine).
//
// The scenario runs in a child of the test (this binary again, with
// dyingVar set): BecomeSubreaper is process-wide, and in the test process
// itself the reaper's sweeps would take the exit status of other tests'
// children.

const dyingVar = "HOOKPROC_TEST_DYING_HOOK"

func init() {
	if os.Getenv(dyingVar) == "" {
		return
	}
	fmt.Println(dyingScenario())
	os.Exit(0)
}

// dyingScenario starts a hook that leaves one setsid'd escapee and keeps
// running, marks it as a killed hook that has not died yet (what result
// does when the cancel grace ends first: the hook is alive here only so
// that the window stays open), calls KillEscaped and reports whether the
// escapee died.
func dyingScenario() string {
	if err := BecomeSubreaper(); err != nil {
		return "skip: " + err.Error()
	}
	tag := runTag()
	hook := exec.Command("/bin/sh", "-c", "setsid sleep 3600 </dev/null >/dev/null 2>&1 & echo $!; exec sleep 3600")
	hook.Env = append(os.Environ(), runTagVar+"="+tag)
	out, err := hook.StdoutPipe()
	if err != nil {
		return "error: " + err.Error()
	}
	spawnLock()
	if err := hook.Start(); err != nil {
		spawnUnlock()
		return "error: " + err.Error()
	}
	trackChild(hook.Process.Pid)
	openRun(tag)
	defer func() { _ = hook.Process.Kill(); _ = hook.Wait() }()
	line, _ := bufio.NewReader(out).ReadString('\n')
	escapee, err := strconv.Atoi(strings.TrimSpace(line))
	if err != nil {
		return "error: no escapee pid: " + line
	}
	defer syscall.Kill(escapee, syscall.SIGKILL)
	dying.Store(hook.Process.Pid, struct{}{})
	KillEscaped()
	if err := proctest.AwaitExit(escapee, hangBound); err != nil {
		return "alive: " + err.Error()
	}
	return "dead"
}

func TestKillEscapedReachesADyingHooksEscapees(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), dyingVar+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the scenario's process: %v\n%s", err, out)
	}
	got := strings.TrimSpace(string(out))
	if strings.HasPrefix(got, "skip: ") {
		t.Skip(got)
	}
	if got != "dead" {
		t.Errorf("the escapee of a hook killed but not yet dead, after KillEscaped: %s; want dead", got)
	}
}
