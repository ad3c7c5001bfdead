//go:build linux

package dispatcher

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// workerScript is a Python worker whose behaviour the tool command picks:
// "hang" never replies, "die" exits, "garbage" prints a non-JSON line,
// "noid" replies without the request's id,
// "exit2" replies with the exit-status envelope; anything else is blocked
// with "COMMAND PID", so tests see which process answered. Every start is
// logged to $WORKER_LOG. IGNORE_EOF=1 makes it outlive its stdin.
const workerScript = `#!/usr/bin/env python3
import json, os, sys, time
with open(os.environ["WORKER_LOG"], "a") as f:
    f.write("start %d %s\n" % (os.getpid(), os.environ.get("HERMES_HOOK_WORKER", "-")))
if os.environ.get("HERMES_HOOK_WORKER") != "1":
    p = json.loads(sys.stdin.read() or "{}")
    print(json.dumps({"action": "block", "message": "oneshot %s %d" % (p["tool_input"]["command"], os.getpid())}))
    sys.exit(0)
for line in sys.stdin:
    p = json.loads(line)
    cmd, rid = p["tool_input"]["command"], p["hermes_hooks_request_id"]
    if cmd == "hang":
        time.sleep(3600)
    if cmd == "die":
        sys.exit(3)
    if cmd == "garbage":
        print("not json", flush=True)
        continue
    if cmd == "noid":
        print(json.dumps({"action": "block", "message": "old protocol"}), flush=True)
        continue
    if cmd == "exit2":
        print(json.dumps({"exit": 2, "stderr": "refused by exit status", "hermes_hooks_request_id": rid}), flush=True)
        continue
    sys.stderr.write("stderr of %s\n" % cmd)
    sys.stderr.flush()
    print(json.dumps({"action": "block", "message": "%s %d" % (cmd, os.getpid()), "hermes_hooks_request_id": rid}), flush=True)
if os.environ.get("IGNORE_EOF"):
    time.sleep(3600)
`

type workerFixture struct {
	t   *testing.T
	dir string
	log string
	d   *Dispatcher
	// warned is what Options.Warn heard.
	warnMu sync.Mutex
	warned []string
}

func newWorkerFixture(t *testing.T, extraYAML []string, env ...string) *workerFixture {
	t.Helper()
	dir := t.TempDir()
	f := &workerFixture{t: t, dir: dir, log: filepath.Join(dir, "starts.log")}
	path := filepath.Join(dir, "worker.py")
	if err := os.WriteFile(path, []byte(workerScript), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg, err := hookconfig.ParseConfig([]byte(hookYAML("pre_tool_call", path, append([]string{"worker: true"}, extraYAML...)...)), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}

	for _, w := range cfg.Warnings {
		t.Fatalf("config warning: %s", w)
	}
	f.d, err = New(cfg, Options{Gate: AllowAll, Env: append(os.Environ(), append(env, "WORKER_LOG="+f.log)...),
		Warn: func(msg string) { f.warnMu.Lock(); f.warned = append(f.warned, msg); f.warnMu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.d.Close() })
	return f
}

// ask dispatches a terminal command and returns the hook's report and the
// outcome's message.
func (f *workerFixture) ask(command string) (protocol.HookReport, protocol.Outcome) {
	f.t.Helper()
	o := dispatch(f.t, f.d, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": command}})
	return onlyReport(f.t, o), o
}

// pidOf reads the worker pid from an answer "COMMAND PID".
func (f *workerFixture) pidOf(o protocol.Outcome, command string) int {
	f.t.Helper()
	rest, ok := strings.CutPrefix(o.Message, command+" ")
	pid, err := strconv.Atoi(rest)
	if !ok || err != nil || o.Decision != protocol.DecisionBlock {
		f.t.Fatalf("answer to %q: %s %q", command, o.Decision, o.Message)
	}
	return pid
}

// entry is the fixture's one entry, whose workers the pool keeps.
func (f *workerFixture) entry() *hookconfig.Entry {
	f.t.Helper()
	ev, _ := protocol.Lookup("pre_tool_call")
	entries := f.d.EntriesFor(ev)
	if len(entries) != 1 {
		f.t.Fatalf("%d entries, want 1", len(entries))
	}
	return entries[0]
}

func (f *workerFixture) starts() int {
	b, _ := os.ReadFile(f.log)
	return strings.Count(string(b), "start ")
}

func awaitGone(t *testing.T, pid int) {
	t.Helper()
	if err := proctest.AwaitExit(pid, hangBound); err != nil {
		t.Fatalf("worker %d still running: %v", pid, err)
	}
}

// Replies come back to the firing that asked, in parallel, from a pool
// that never grows past its size.
func TestWorkerRepliesInOrderUnderParallelFirings(t *testing.T) {
	f := newWorkerFixture(t, []string{"workers: 2"})
	var wg sync.WaitGroup
	pids := sync.Map{}
	for i := range 30 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := fmt.Sprintf("cmd-%d", i)
			_, o := f.ask(cmd)
			pids.Store(f.pidOf(o, cmd), true)
		}()
	}
	wg.Wait()
	n := 0
	pids.Range(func(any, any) bool { n++; return true })
	if n < 1 || n > 2 || f.starts() > 2 {
		t.Fatalf("%d worker pids, %d starts; want at most 2", n, f.starts())
	}
	// Sequential firings reuse a worker: no new start.
	before := f.starts()
	f.ask("again")
	if f.starts() != before {
		t.Fatalf("a firing started a new worker while one was idle")
	}
	st := f.d.Workers()
	if len(st) != 1 || st[0].Live < 1 || st[0].Failed != "" {
		t.Fatalf("Workers() = %+v", st)
	}
}

// A request past its timeout kills the worker's group; it counts as a
// timeout (fail_closed blocks) and the next request gets a fresh worker.
//
// Only the hanging request has a short timeout: a request's timeout also
// covers starting the worker, and starting Python on a loaded machine can
// take longer than a second. The entry's timeout is what each request
// reads, so the test sets it between requests (one worker pool throughout).
func TestWorkerTimeoutKillsItAndRestarts(t *testing.T) {
	f := newWorkerFixture(t, []string{"timeout: 60", "fail_closed: true"})
	_, o := f.ask("first")
	pid := f.pidOf(o, "first")
	e := f.entry()
	e.Timeout = time.Second
	rep, o := f.ask("hang")
	e.Timeout = 60 * time.Second
	if !rep.TimedOut || o.Decision != protocol.DecisionBlock {
		t.Fatalf("hang: report %+v, outcome %s %q", rep, o.Decision, o.Message)
	}
	awaitGone(t, pid)
	_, o = f.ask("after")
	if f.pidOf(o, "after") == pid {
		t.Fatal("the timed-out worker answered again")
	}
}

// A worker that dies, prints a line that is not a JSON object, or replies
// without the request's id (a worker written before ids), is replaced; the
// request it failed reports an error.
func TestWorkerCrashAndGarbageRestart(t *testing.T) {
	for _, bad := range []string{"die", "garbage", "noid"} {
		t.Run(bad, func(t *testing.T) {
			f := newWorkerFixture(t, nil)
			_, o := f.ask("first")
			pid := f.pidOf(o, "first")
			rep, o := f.ask(bad)
			if rep.Error == "" || !strings.HasPrefix(rep.Error, "worker ") || o.Decision != protocol.DecisionNone {
				t.Fatalf("%s: report %+v, outcome %s", bad, rep, o.Decision)
			}
			awaitGone(t, pid)
			_, o = f.ask("after")
			if f.pidOf(o, "after") == pid {
				t.Fatal("the broken worker answered again")
			}
		})
	}
}

// A worker that keeps crashing is given up, not restarted forever, and a
// fail_closed guard blocks meanwhile.
func TestWorkerCrashLoopMarkedFailed(t *testing.T) {
	f := newWorkerFixture(t, []string{"fail_closed: true"})
	for range 5 { // hookproc gives a pool up after 5 crashes a minute
		if _, o := f.ask("die"); o.Decision != protocol.DecisionBlock {
			t.Fatalf("a crash of a fail_closed worker did not block: %s", o.Decision)
		}
	}
	starts := f.starts()
	rep, o := f.ask("ok")
	if !strings.Contains(rep.Error, "failed: it crashed 5 times") || o.Decision != protocol.DecisionBlock {
		t.Fatalf("after the crash loop: report %+v, outcome %s", rep, o.Decision)
	}
	if f.starts() != starts {
		t.Fatal("a failed worker was started again")
	}
	if st := f.d.Workers(); len(st) != 1 || st[0].Failed == "" {
		t.Fatalf("Workers() = %+v, want it marked failed", st)
	}
	// The log hears it once, when it happens (serve logs Warn at its
	// default level).
	f.warnMu.Lock()
	defer f.warnMu.Unlock()
	n := 0
	for _, w := range f.warned {
		if strings.Contains(w, "failed: it crashed 5 times") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("warnings %q: want the given-up worker once", f.warned)
	}
}

// Claude-dialect workers say exit 2 with the envelope; stderr is each
// request's own.
func TestWorkerExitEnvelopeAndStderr(t *testing.T) {
	f := newWorkerFixture(t, []string{"dialect: claude"})
	rep, o := f.ask("exit2")
	if o.Decision != protocol.DecisionBlock || o.Message != "refused by exit status" || rep.ExitCode == nil || *rep.ExitCode != 2 {
		t.Fatalf("exit2: report %+v, outcome %s %q", rep, o.Decision, o.Message)
	}
	ev, _ := protocol.Lookup("pre_tool_call")
	e := f.d.EntriesFor(ev)[0]
	for _, cmd := range []string{"a", "b"} {
		run := f.d.RunEntry(context.Background(), ev, e, map[string]any{"tool_name": "terminal", "args": map[string]any{"command": cmd}})
		if string(run.Stderr) != "stderr of "+cmd+"\n" {
			t.Fatalf("stderr of request %s = %q", cmd, run.Stderr)
		}
	}
}

// Idle workers stop after worker_idle.
func TestWorkerIdleStops(t *testing.T) {
	f := newWorkerFixture(t, []string{"worker_idle: 1"})
	_, o := f.ask("once")
	awaitGone(t, f.pidOf(o, "once"))
	if st := f.d.Workers(); len(st) != 1 || st[0].Live != 0 {
		t.Fatalf("Workers() = %+v, want none live", st)
	}
}

// Close stops every worker, even one that ignores EOF on its stdin.
func TestWorkerCloseKillsOneIgnoringEOF(t *testing.T) {
	f := newWorkerFixture(t, nil, "IGNORE_EOF=1")
	_, o := f.ask("once")
	pid := f.pidOf(o, "once")
	done := make(chan struct{})
	go func() { f.d.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(hangBound):
		t.Fatal("Close hung on a worker ignoring EOF")
	}
	awaitGone(t, pid)
}

// One-shot (a process that exits after one dispatch): the worker entry
// runs as an ordinary hook, and the report says so.
func TestWorkerEntryRunsOneShot(t *testing.T) {
	f := newWorkerFixture(t, nil)
	f.d.opts.OneShotWorkers = true
	rep, o := f.ask("x")
	if !strings.HasPrefix(o.Message, "oneshot x ") || !strings.Contains(rep.Note, "run one-shot") {
		t.Fatalf("one-shot: report %+v, message %q", rep, o.Message)
	}
}

// Consent: an edited script stops its worker at once and does not run
// until approved again; a revoked one stops its worker too.
func TestWorkerStoppedWhenScriptChangesOrIsRevoked(t *testing.T) {
	home := t.TempDir()
	dir := t.TempDir()
	logPath := filepath.Join(dir, "starts.log")
	path := filepath.Join(dir, "worker.py")
	if err := os.WriteFile(path, []byte(workerScript), 0o755); err != nil {
		t.Fatal(err)
	}
	store := consent.NewStore(home)
	if _, err := store.Approve("pre_tool_call", path); err != nil {
		t.Fatal(err)
	}
	cfg, err := hookconfig.ParseConfig([]byte(hookYAML("pre_tool_call", path, "worker: true", "fail_closed: true")), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}

	d, err := New(cfg, Options{Gate: ConsentGate(consent.NewPolicy(store, consent.PolicyOptions{})), Env: append(os.Environ(), "WORKER_LOG="+logPath)})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	f := &workerFixture{t: t, dir: dir, log: logPath, d: d}
	_, o := f.ask("first")
	pid := f.pidOf(o, "first")

	// Edited: refused (a fail_closed guard blocks), and its worker is gone.
	if err := os.WriteFile(path, []byte(workerScript+"# edited\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	rep, o := f.ask("second")
	if o.Decision != protocol.DecisionBlock || !strings.Contains(o.Message, "changed since approval") || rep.Ran {
		t.Fatalf("edited: report %+v, outcome %s %q", rep, o.Decision, o.Message)
	}
	awaitGone(t, pid)

	// Approved again: a new worker runs the new file.
	if _, err := store.Approve("pre_tool_call", path); err != nil {
		t.Fatal(err)
	}
	_, o = f.ask("third")
	pid = f.pidOf(o, "third")

	// Revoked: not run, worker stopped.
	if _, err := store.Revoke(path); err != nil {
		t.Fatal(err)
	}
	rep, _ = f.ask("fourth")
	if rep.Ran {
		t.Fatalf("revoked hook ran: %+v", rep)
	}
	awaitGone(t, pid)
}

// StopChangedWorkers stops a worker whose script changed, without a
// request: it would go on running the code it loaded.
func TestStopChangedWorkers(t *testing.T) {
	home, dir := t.TempDir(), t.TempDir()
	logPath := filepath.Join(dir, "starts.log")
	path := filepath.Join(dir, "worker.py")
	if err := os.WriteFile(path, []byte(workerScript), 0o755); err != nil {
		t.Fatal(err)
	}
	store := consent.NewStore(home)
	if _, err := store.Approve("pre_tool_call", path); err != nil {
		t.Fatal(err)
	}
	cfg, err := hookconfig.ParseConfig([]byte(hookYAML("pre_tool_call", path, "worker: true")), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}

	d, err := New(cfg, Options{Gate: ConsentGate(consent.NewPolicy(store, consent.PolicyOptions{})), Env: append(os.Environ(), "WORKER_LOG="+logPath)})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	f := &workerFixture{t: t, dir: dir, log: logPath, d: d}
	_, o := f.ask("first")
	pid := f.pidOf(o, "first")
	if st := d.StopChangedWorkers(); len(st) != 0 {
		t.Fatalf("stopped %+v with nothing changed", st)
	}
	if err := os.WriteFile(path, []byte(workerScript+"# edited\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if st := d.StopChangedWorkers(); len(st) != 1 || st[0].Command != path {
		t.Fatalf("StopChangedWorkers() = %+v", st)
	}
	awaitGone(t, pid)
}

// A worker's script that cannot start by itself (no execute bit) is
// refused with the verdict validate, doctor and test give, and nothing
// starts — checked when the worker would start, not at every request to
// a live one (issue 24 item 3). Made executable, it starts once and
// answers every later request from the same process.
func TestWorkerScriptThatCannotStartIsRefused(t *testing.T) {
	f := newWorkerFixture(t, nil)
	script := filepath.Join(f.dir, "worker.py")
	if err := os.Chmod(script, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, _ := f.ask("ls")
	if rep.Ran || !strings.Contains(rep.Error, "not executable") {
		t.Fatalf("a worker script without its execute bit: ran=%v error=%q", rep.Ran, rep.Error)
	}
	if _, err := os.Stat(f.log); err == nil {
		t.Fatal("the worker started")
	}
	if err := os.Chmod(script, 0o755); err != nil {
		t.Fatal(err)
	}
	_, o1 := f.ask("one")
	_, o2 := f.ask("two")
	if p1, p2 := f.pidOf(o1, "one"), f.pidOf(o2, "two"); p1 != p2 {
		t.Fatalf("two requests, two workers (%d, %d)", p1, p2)
	}
}
