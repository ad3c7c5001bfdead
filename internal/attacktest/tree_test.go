//go:build linux

package attacktest

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
	"github.com/hermes-hooks/hermes-hooks/internal/testbin"
)

// Hermes' (and Codex') process-tree rule (issue 23, item 17): a hook that
// exits 0 within its timeout keeps the helpers it detached — a
// SessionStart hook may start a background service — and the whole tree,
// descendants that left the hook's process group included, is killed only
// when the hook fails (any other exit status, or death by a signal), times
// out, is cancelled, or its dispatcher is stopped. Hermes pins the first
// half in test_successful_hook_preserves_detached_helpers; the old code
// killed every descendant when the dispatch ended, whatever the hook did.

// twoHelpers starts a helper in the hook's process group and one that
// leaves it (setsid), both with their stdio detached so the hook's pipes
// reach EOF, and waits until each has written its pid: a helper writes it
// after its redirections, so the hook never exits while one still holds
// its pipes (a helper not yet scheduled on a loaded machine did, and past
// the drain grace the tree of a hook that had not detached it was killed).
const twoHelpers = "#!/bin/sh\n" +
	"sh -c 'echo $$ > \"$WORK/ingroup.pid\"; exec sleep 3600' </dev/null >/dev/null 2>&1 &\n" +
	"setsid sh -c 'echo $$ > \"$WORK/escaped.pid\"; exec sleep 3600' </dev/null >/dev/null 2>&1 &\n" +
	"until [ -s \"$WORK/ingroup.pid\" ] && [ -s \"$WORK/escaped.pid\" ]; do sleep 0.01; done\n"

// helperPids reads the two helpers' pids and kills them when the test ends,
// whatever it found.
// escapeesKilled: a descendant that left its hook's process group (setsid)
// is tracked and killed with the hook's tree. Only Linux's own path has the
// child subreaper that does it; the portable build (macOS, the BSDs, -tags
// hermes_portable) kills process groups only, as the security notes say.
const escapeesKilled = !testbin.Portable

func helperPids(t *testing.T, e *env) (ingroup, escaped int) {
	t.Helper()
	ingroup, escaped = readPid(t, e.path("ingroup.pid")), readPid(t, e.path("escaped.pid"))
	t.Cleanup(func() {
		syscall.Kill(ingroup, syscall.SIGKILL)
		syscall.Kill(escaped, syscall.SIGKILL)
	})
	return ingroup, escaped
}

// Hermes' test_successful_hook_preserves_detached_helpers, through the
// one-shot dispatch: the helpers of a hook that exited 0 outlive the
// dispatch, the one that left the process group too.
func TestSuccessfulHookKeepsDetachedHelpers(t *testing.T) {
	e := newEnv(t)
	e.write("hook.sh", twoHelpers+"echo '{}'\nexit 0\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  on_session_start:\n    - command: ./hook.sh\n", 0o644)
	e.run("", "approve", "./hook.sh")
	out := e.run(`{"session_id":"s1"}`, "dispatch", "on_session_start")
	if !strings.Contains(out, `"exit_code":0`) {
		t.Fatalf("the hook did not exit 0: %s", out)
	}
	ingroup, escaped := helperPids(t, e)
	// The dispatch has exited: whatever it kills is killed by now.
	if !alive(ingroup) {
		t.Errorf("the successful hook's helper %d (in its process group) did not survive the dispatch", ingroup)
	}
	if !alive(escaped) {
		t.Errorf("the successful hook's setsid helper %d did not survive the dispatch", escaped)
	}
}

// A hook that fails — exits non-zero (a Claude exit-2 block included) or
// dies of a signal — has its whole tree killed when it ends. Under serve,
// which does not exit after the dispatch: the old server left both helpers
// running for as long as it ran.
func TestFailedHookTreeKilled(t *testing.T) {
	for name, end := range map[string]string{"exit1": "exit 1", "exit2": "exit 2", "killed": "kill -9 $$"} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t)
			e.write("hook.sh", twoHelpers+end+"\n", 0o755)
			e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+e.path("hook.sh")+"\n", 0o644)
			e.run("", "approve", e.path("hook.sh"))
			s := e.serve(shortSock(t))
			if code, body := s.dispatch("pre_tool_call", `{"tool_name":"terminal"}`); code != 200 || strings.Contains(body, `"exit_code":0`) {
				t.Fatalf("dispatch: %d %s", code, body)
			}
			ingroup, escaped := helperPids(t, e)
			want := map[string]int{"in its process group": ingroup, "setsid": escaped}
			if !escapeesKilled {
				delete(want, "setsid")
			}
			for name, pid := range want {
				if err := proctest.AwaitExit(pid, 30*time.Second); err != nil {
					t.Errorf("the failed hook's helper %d (%s) outlived it: %v", pid, name, err)
				}
			}
		})
	}
}

// A hook that exits 0 but leaves a helper holding its output pipes has not
// detached it: after the drain grace its tree is killed, the setsid helper
// too (the old code killed the process group only).
func TestHelperHoldingThePipesKilled(t *testing.T) {
	e := newEnv(t)
	e.write("hook.sh", "#!/bin/sh\n"+
		"setsid sh -c 'echo $$ > \"$WORK/escaped.pid\"; exec sleep 3600' &\n"+
		"until [ -s \"$WORK/escaped.pid\" ]; do sleep 0.01; done\necho '{}'\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+e.path("hook.sh")+"\n", 0o644)
	e.run("", "approve", e.path("hook.sh"))
	s := e.serve(shortSock(t))
	if code, body := s.dispatch("pre_tool_call", `{"tool_name":"terminal"}`); code != 200 {
		t.Fatalf("dispatch: %d %s", code, body)
	}
	pid := readPid(t, e.path("escaped.pid"))
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	// The dispatch returned in spite of the held pipes; the rest is the
	// subreaper's.
	testbin.SkipUnlessLinuxFeatures(t, "a child subreaper: a descendant that left its hook's process group (setsid) is not tracked")
	if err := proctest.AwaitExit(pid, 30*time.Second); err != nil {
		t.Fatalf("the setsid helper %d holding the hook's pipes outlived the hook: %v", pid, err)
	}
}

// Stopping serve kills the whole tree of a hook it is running, and only
// that: the helpers a successful hook detached earlier are left alone (the
// old server killed every descendant it had adopted when it stopped).
func TestServeStopKillsRunningTreesOnly(t *testing.T) {
	e := newEnv(t)
	e.write("start.sh", twoHelpers+"echo '{}'\n", 0o755)
	e.write("slow.sh", "#!/bin/sh\n"+
		"setsid sh -c 'echo $$ > \"$WORK/slow-escaped.pid\"; exec sleep 3600' </dev/null >/dev/null 2>&1 &\n"+
		"echo $$ > \"$WORK/slow.pid\"\nexec sleep 3600\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  on_session_start:\n    - command: "+e.path("start.sh")+
		"\n  pre_tool_call:\n    - command: "+e.path("slow.sh")+"\n", 0o644)
	e.run("", "approve", "--all")
	s := e.serve(shortSock(t), "--shutdown-timeout", "2s")
	if code, body := s.dispatch("on_session_start", `{"session_id":"s1"}`); code != 200 || !strings.Contains(body, `"exit_code":0`) {
		t.Fatalf("dispatch: %d %s", code, body)
	}
	ingroup, escaped := helperPids(t, e)
	go func() {
		// Fails when the server stops; only the hook's tree matters.
		if resp, err := s.client.Post("http://x/v1/dispatch/pre_tool_call", "application/json", strings.NewReader(`{}`)); err == nil {
			resp.Body.Close()
		}
	}()
	slow, slowEscaped := readPid(t, e.path("slow.pid")), readPid(t, e.path("slow-escaped.pid"))
	t.Cleanup(func() { syscall.Kill(slowEscaped, syscall.SIGKILL) })
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop on SIGTERM")
	}
	outlived := []int{slow, slowEscaped}
	if !escapeesKilled {
		outlived = outlived[:1]
	}
	for _, pid := range outlived {
		if err := proctest.AwaitExit(pid, 30*time.Second); err != nil {
			t.Errorf("process %d of the running hook outlived the server: %v", pid, err)
		}
	}
	// serve has exited: whatever it kills is killed by now.
	for _, pid := range []int{ingroup, escaped} {
		if !alive(pid) {
			t.Errorf("helper %d of a hook that had succeeded was killed when serve stopped", pid)
		}
	}
}
