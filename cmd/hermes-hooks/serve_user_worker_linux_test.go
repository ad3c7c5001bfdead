//go:build linux

package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
)

// TestUserServeWorkersInEveryProject: a worker entry of the user's config
// keeps one process per project set under one `serve --user`: two hook
// calls from a project are answered by the same worker, another project
// gets its own, and dropping a project (--max-projects 1) stops its worker.
func TestUserServeWorkersInEveryProject(t *testing.T) {
	e := newServeEnv(t, "hooks: {}\n")
	hook := e.script("worker.sh", `if [ "$HERMES_HOOK_WORKER" != 1 ]; then cat >/dev/null; echo '{"action":"block","message":"oneshot"}'; exit 0; fi
while IFS= read -r line; do
  id=${line##*'"hermes_hooks_request_id": '}
  echo "{\"action\":\"block\",\"message\":\"pid $$\",\"hermes_hooks_request_id\":${id%\}}}"
done
`)
	e.writeConfig("hooks:\n  pre_tool_call:\n    - command: " + hook + "\n      worker: true\n")
	e.mustCLI("approve", hook)
	p1 := e.userProject("p1", "unused")
	p2 := e.userProject("p2", "unused")
	e.socketPath = filepath.Join(e.home, "run", "hermes-hooks.sock")
	p := e.serve("--user", "--max-projects", "1")

	// workerPid asks from dir and returns the pid of the worker that
	// answered (the guard of the project's own hooks file blocks too;
	// the worker's message is the one the fold keeps first).
	workerPid := func(dir string) int {
		t.Helper()
		out, errs, code := e.cliIn(dir, claudeBash(dir, "ls"), nil, "hook", "claude")
		_, after, ok := strings.Cut(out, `"permissionDecisionReason":"pid `)
		pid, err := strconv.Atoi(strings.SplitN(after, `"`, 2)[0])
		if !ok || err != nil || code != 0 || errs != "" {
			t.Fatalf("hook in %s: exit %d %q %s", dir, code, out, errs)
		}
		return pid
	}
	a, b := workerPid(p1), workerPid(p1)
	if a != b {
		t.Fatalf("p1's two calls: workers %d and %d, want one", a, b)
	}
	c := workerPid(p2)
	if c == a {
		t.Fatalf("p2 answered by p1's worker %d", c)
	}
	p.waitLog(`msg="project dropped" project=` + p1)
	if err := proctest.AwaitExit(a, serveDeadline); err != nil {
		t.Fatalf("p1's worker %d still running after p1 was dropped: %v", a, err)
	}
	if d := workerPid(p2); d != c {
		t.Fatalf("p2's second call: worker %d, want %d", d, c)
	}
}
