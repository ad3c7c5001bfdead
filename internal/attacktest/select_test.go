//go:build linux

package attacktest

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// hangGuard bounds a command that must answer at once: far above what it
// takes (tens of milliseconds idle, a second or two on a machine loaded
// well past its cores), below what the old code took (20 s and more).
const hangGuard = 15 * time.Second

// runBounded runs hermes-hooks in dir and fails the test when it takes
// longer than hangGuard (killing it), returning stdout and stderr.
func (e *env) runBounded(dir, stdin string, args ...string) (string, string) {
	e.t.Helper()
	c := e.cmd(stdin, args...)
	c.Dir = dir
	var out, errb strings.Builder
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Start(); err != nil {
		e.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			e.t.Fatalf("hermes-hooks %v: %v\n%s", args, err, errb.String())
		}
	case <-time.After(hangGuard):
		c.Process.Kill()
		<-done
		e.t.Fatalf("hermes-hooks %v took more than %v", args, hangGuard)
	}
	return out.String(), errb.String()
}

// evilProject makes the work directory a repository whose hooks file lists
// n hooks, none approved, each with a matcher that backtracks
// catastrophically on evilTool.
func (e *env) evilProject(n int) {
	if err := os.MkdirAll(e.path(".git"), 0o755); err != nil {
		e.t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("hooks:\n  pre_tool_call:\n")
	for i := range n {
		fmt.Fprintf(&b, "    - command: ./p%d.sh\n      matcher: '(?=(a+)+b)a*|x%d'\n", i, i)
	}
	e.write(".hermes/hooks.yaml", b.String(), 0o644)
}

const evilTool = `{"tool_name":"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}`

// A repository's hooks nobody approved cost a dispatch nothing (issue 23,
// item 10): their matchers never run. The old code ran all 200 of these
// matchers at every tool call, each until the backtracking engine's 100 ms
// bound: 20 s and more per decision.
func TestUnapprovedProjectMatchersDoNotRun(t *testing.T) {
	e := newEnv(t)
	e.write("home/config.yaml", "", 0o644)
	e.evilProject(200)
	out, errs := e.runBounded(e.dir, evilTool, "dispatch", "pre_tool_call")
	if !strings.Contains(out, `"decision":"none"`) || strings.Contains(out, "p1.sh") {
		t.Fatalf("outcome %s", out)
	}
	if !strings.Contains(errs, "200 hooks for pre_tool_call from") {
		t.Fatalf("no warning naming the repository's file: %s", errs)
	}
}

// serve's /metrics holds a repository's hooks only once approved (issue 23,
// item 10): the old server exported a label set per hook a cloned
// repository listed (118 MB of /metrics for 48 000 of them).
func TestServeMetricsLeaveOutUnapprovedProjectHooks(t *testing.T) {
	e := newEnv(t)
	e.write("home/config.yaml", "", 0o644)
	if err := os.MkdirAll(e.path(".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	e.write(".hermes/hooks.yaml", "hooks:\n  pre_tool_call:\n    - command: ./ok.sh\n    - command: ./p1.sh\n    - command: ./p2.sh\n", 0o644)
	e.write("ok.sh", "#!/bin/sh\necho '{}'\n", 0o755)
	e.run("", "approve", "./ok.sh", "--event", "pre_tool_call")
	s := e.serve(shortSock(t))
	if code, body := s.dispatch("pre_tool_call", `{"tool_name":"terminal"}`); code != 200 || !strings.Contains(body, `"command":"./ok.sh"`) {
		t.Fatalf("dispatch: %d %s", code, body)
	}
	resp, err := s.client.Get("http://x/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	m := string(b)
	if !strings.Contains(m, `hermes_hooks_hook_runs_total{command="./ok.sh",event="pre_tool_call"} 1`) {
		t.Fatalf("the approved project hook is missing:\n%s", m)
	}
	if strings.Contains(m, "p1.sh") || strings.Contains(m, "p2.sh") {
		t.Fatalf("unapproved project hooks in /metrics:\n%s", m)
	}
}
