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

// Workers fail closed, not open (issue 23, item 8), under a real serve.

// safetyWorker is a Python worker. It blocks "rm -rf" and answers anything
// else with "pid PID"; "twice" it answers with no opinion, and writes that
// reply a second time, late (when the next request comes); "spawn" starts
// a descendant that leaves its process group (setsid) and writes its pid;
// "hang" never replies. It echoes each request's id.
const safetyWorker = `#!/usr/bin/env python3
import json, os, subprocess, sys, time
late = None
for line in sys.stdin:
    p = json.loads(line)
    rid, cmd = p.get("hermes_hooks_request_id"), p["tool_input"]["command"]
    if late is not None:
        sys.stdout.write(late)
        late = None
    if cmd == "hang":
        time.sleep(3600)
    if cmd == "spawn":
        subprocess.Popen(["setsid", "sh", "-c", 'echo $$ > "$TESTDIR/escaped.pid"; exec sleep 3600'],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if "rm -rf" in cmd:
        out = {"action": "block", "message": "no rm -rf"}
    elif cmd == "twice":
        out = {}
    else:
        out = {"action": "block", "message": "pid %d" % os.getpid()}
    out["hermes_hooks_request_id"] = rid
    reply = json.dumps(out) + "\n"
    sys.stdout.write(reply)
    sys.stdout.flush()
    if cmd == "twice":
        late = reply
`

// safetyServe starts serve with the worker as a pre_tool_call hook with
// the extra YAML lines given.
func safetyServe(t *testing.T, extra string) (*serveEnv, *serveProc, string) {
	t.Helper()
	e := newServeEnv(t, "hooks: {}\n")
	path := filepath.Join(e.dir, "worker.py")
	replaceFile(t, path, safetyWorker, 0o755)
	e.writeConfig("hooks:\n  pre_tool_call:\n    - command: " + path + "\n      worker: true\n" + extra)
	e.mustCLI("approve", path)
	return e, e.serve(), path
}

// ask dispatches a terminal command and returns the outcome and the
// worker's one hook report.
func ask(p *serveProc, command string) (map[string]any, map[string]any) {
	p.e.t.Helper()
	o := p.outcome("pre_tool_call", `{"tool_name":"terminal","args":{"command":"`+command+`"}}`)
	hooks, _ := o["hooks"].([]any)
	if len(hooks) != 1 {
		p.e.t.Fatalf("outcome %v", o)
	}
	return o, hooks[0].(map[string]any)
}

func first(o, _ map[string]any) map[string]any { return o }

func workerPid(t *testing.T, o map[string]any) int {
	t.Helper()
	msg, _ := o["message"].(string)
	pid, err := strconv.Atoi(strings.TrimPrefix(msg, "pid "))
	if err != nil {
		t.Fatalf("no worker pid in %v", o)
	}
	return pid
}

// (a) A worker killed while idle (an OOM kill, kill -9): the next request
// goes to a fresh worker. The old code failed it ("exited while idle"),
// and a guard without fail_closed was skipped.
func TestServeWorkerDeadWhileIdleIsReplaced(t *testing.T) {
	_, p, _ := safetyServe(t, "")
	o, _ := ask(p, "ls")
	pid := workerPid(t, o)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := proctest.AwaitExit(pid, serveDeadline); err != nil {
		t.Fatal(err)
	}
	o, rep := ask(p, "rm -rf /")
	if o["decision"] != "block" || rep["error"] != nil {
		t.Fatalf("the request after the worker died while idle: %v", o)
	}
}

// (b) A line the worker writes late — here a second copy of its previous
// reply — is not taken for the next request's reply: the ids differ, the
// worker is killed and the request fails, so a fail_closed guard blocks
// and one without fail_closed reports the failure. The old code answered
// `rm -rf /` with the stale reply.
func TestServeWorkerLateLineAnswersNothing(t *testing.T) {
	for _, fc := range []bool{true, false} {
		t.Run("fail_closed="+strconv.FormatBool(fc), func(t *testing.T) {
			extra := ""
			if fc {
				extra = "      fail_closed: true\n"
			}
			_, p, _ := safetyServe(t, extra)
			pid := workerPid(t, first(ask(p, "ls")))
			if o, _ := ask(p, "twice"); o["decision"] != "none" {
				t.Fatalf("twice: %v", o)
			}
			o, rep := ask(p, "rm -rf /")
			errText, _ := rep["error"].(string)
			if !strings.Contains(errText, "replied to another request") {
				t.Fatalf("a late line answered rm -rf /: %v", o)
			}
			if fc && o["decision"] != "block" {
				t.Fatalf("fail_closed guard did not block: %v", o)
			}
			if err := proctest.AwaitExit(pid, serveDeadline); err != nil {
				t.Fatalf("the worker that replied out of turn was kept: %v", err)
			}
			if o, _ := ask(p, "rm -rf /"); o["decision"] != "block" || o["message"] != "no rm -rf" {
				t.Fatalf("a fresh worker did not answer: %v", o)
			}
		})
	}
}

// (c) A worker's descendant that left its process group dies with the
// worker: at a request's timeout, and when the worker is stopped (a
// reload replaces the hook set). The old code killed the group only.
func TestServeWorkerEscapeesDieWithIt(t *testing.T) {
	t.Run("timeout", func(t *testing.T) {
		// The timeout is what the hang request waits for, and it covers
		// the first request's Python start too: it starts short and
		// grows only when that start did not fit (a loaded machine).
		proctest.GrowTimeout(t, 2*time.Second, 32*time.Second, func(timeout time.Duration) bool {
			return escapeeDiesWithWorker(t, "timeout", int(timeout/time.Second))
		})
	})
	t.Run("stop", func(t *testing.T) {
		// A hang guard: no request here may time out.
		if !escapeeDiesWithWorker(t, "stop", 60) {
			t.Fatal("the worker did not answer within 60 s")
		}
	})
}

// escapeeDiesWithWorker is one run of TestServeWorkerEscapeesDieWithIt with
// the worker's timeout in seconds; false when the worker's first request
// timed out (it did not start in time).
func escapeeDiesWithWorker(t *testing.T, end string, timeout int) bool {
	e, p, path := safetyServe(t, "      timeout: "+strconv.Itoa(timeout)+"\n")
	if o, rep := ask(p, "spawn"); o["decision"] != "block" {
		if rep["timed_out"] == true {
			return false
		}
		t.Fatalf("spawn: %v", o)
	}
	data := ""
	p.waitFor("escaped.pid", func() bool {
		b, _ := os.ReadFile(filepath.Join(e.dir, "escaped.pid"))
		data = string(b)
		return strings.HasSuffix(data, "\n")
	})
	pid, err := strconv.Atoi(strings.TrimSpace(data))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
	if end == "timeout" {
		if _, rep := ask(p, "hang"); rep["timed_out"] != true {
			t.Fatalf("hang: %v", rep)
		}
	} else {
		gen := p.generation()
		e.writeConfig("hooks:\n  pre_tool_call:\n    - command: " + path + "\n      worker: true\n      timeout: " + strconv.Itoa(timeout+1) + "\n")
		p.waitFor("the reload", func() bool { return p.generation() > gen })
	}
	if err := proctest.AwaitExit(pid, serveDeadline); err != nil {
		t.Fatalf("the worker's setsid descendant outlived it (%s): %v", end, err)
	}
	return true
}

// (d) A worker whose script changes is stopped when serve sees the change,
// not at its next request: it runs the code it loaded.
func TestServeWorkerStoppedWhenScriptChanges(t *testing.T) {
	_, p, path := safetyServe(t, "")
	o, _ := ask(p, "ls")
	pid := workerPid(t, o)
	replaceFile(t, path, safetyWorker+"# edited\n", 0o755)
	if err := proctest.AwaitExit(pid, serveDeadline); err != nil {
		t.Fatalf("the worker kept running its old script: %v", err)
	}
	p.waitLog(`worker stopped: its files changed`)
}
