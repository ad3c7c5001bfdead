//go:build linux

package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// TestServeWorkers: a worker entry under serve keeps one process for many
// dispatches (reported live in /healthz), the same entry through a one-shot
// `dispatch` runs one-shot and says so, and SIGTERM leaves no worker
// behind.
func TestServeWorkers(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	hook := e.script("worker.sh", `echo start >> "$TESTDIR/starts"
if [ "$HERMES_HOOK_WORKER" != 1 ]; then cat >/dev/null; echo '{"action":"block","message":"oneshot"}'; exit 0; fi
while IFS= read -r line; do
  id=${line##*'"hermes_hooks_request_id": '}
  echo "{\"action\":\"block\",\"message\":\"pid $$\",\"hermes_hooks_request_id\":${id%\}}}"
done
`)
	e.writeConfig("hooks:\n  pre_tool_call:\n    - command: " + hook + "\n      worker: true\n")
	e.mustCLI("approve", hook)
	p := e.serve()

	first := p.outcome("pre_tool_call", `{"tool_name":"terminal"}`)
	second := p.outcome("pre_tool_call", `{"tool_name":"terminal"}`)
	msg, _ := first["message"].(string)
	pid, err := strconv.Atoi(strings.TrimPrefix(msg, "pid "))
	if err != nil || second["message"] != msg {
		t.Fatalf("two dispatches were not answered by one worker: %v / %v", first["message"], second["message"])
	}
	if b, _ := os.ReadFile(filepath.Join(e.dir, "starts")); strings.Count(string(b), "start") != 1 {
		t.Fatalf("worker started %d times", strings.Count(string(b), "start"))
	}
	ws, _ := p.healthz()["workers"].([]any)
	if len(ws) != 1 || ws[0].(map[string]any)["live"] != float64(1) {
		t.Fatalf("healthz workers = %v", p.healthz()["workers"])
	}

	out, _, _ := e.cli(`{"tool_name":"terminal"}`, "dispatch", "pre_tool_call")
	if !strings.Contains(out, `"message":"oneshot"`) || !strings.Contains(out, "worker entry run one-shot") {
		t.Fatalf("one-shot dispatch: %s", out)
	}

	if err := p.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-p.exited:
	case <-time.After(serveDeadline):
		t.Fatal("serve did not exit after SIGTERM")
	}
	if err := proctest.AwaitExit(pid, serveDeadline); err != nil {
		t.Fatalf("worker %d left running after serve stopped: %v", pid, err)
	}
}

// TestDoctorLiveReportsFailedWorker: a worker that keeps crashing is given
// up, and `doctor --live` says so (exit 1); /v1/stats carries it.
func TestDoctorLiveReportsFailedWorker(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	hook := e.script("crash.sh", "exit 3\n")
	e.writeConfig("hooks:\n  pre_tool_call:\n    - command: " + hook + "\n      worker: true\n")
	e.mustCLI("approve", hook)
	e.socketPath = filepath.Join(e.home, "hermes-hooks.sock") // doctor --live's default
	p := e.serve()
	for range 6 {
		p.outcome("pre_tool_call", `{"tool_name":"terminal"}`)
	}
	_, body := p.request("GET", "/v1/stats", "")
	if !strings.Contains(string(body), `"worker_failed":"failed: it crashed 5 times`) {
		t.Fatalf("/v1/stats: %s", body)
	}
	out, errs, code := e.cli("", "doctor", "--live")
	if code != 1 || !strings.Contains(out, "worker failed: it crashed 5 times") {
		t.Fatalf("doctor --live: exit %d\n%s%s", code, out, errs)
	}
}
