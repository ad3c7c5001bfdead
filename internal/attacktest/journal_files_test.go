//go:build linux

package attacktest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// What a one-shot dispatch does when something other than a journal sits
// where the journal's files are: the decision must come out, on time and
// unchanged (docs/journal.md: a journal that cannot be written "never
// changes or holds up a decision"), and the file must be left as it was.

// journalEnv is a home whose config blocks terminal calls through an
// approved hook and keeps payloads in the journal (so a record can be
// made larger than a pipe's buffer).
func journalEnv(t *testing.T) *env {
	e := newEnv(t)
	e.write("block.sh", "#!/bin/sh\ncat >/dev/null\necho '{\"action\":\"block\",\"message\":\"no\"}'\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+e.path("block.sh")+
		"\n      matcher: terminal\njournal:\n  include_payload: true\n", 0o644)
	e.run("", "approve", e.path("block.sh"))
	return e
}

// dispatchWithin runs one dispatch of payload and fails the test unless it
// answers the hook's block within hangGuard (it is killed then). It
// returns stderr.
func (e *env) dispatchWithin(payload string) string {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	// Killed, not asked to stop: the old dispatch, stuck in its write,
	// did not end on SIGTERM.
	c := exec.CommandContext(ctx, binary, "dispatch", "pre_tool_call")
	c.Dir, c.Env, c.Stdin = e.dir, e.vars, strings.NewReader(payload)
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	start := time.Now()
	err := c.Run()
	if ctx.Err() != nil {
		e.t.Fatalf("dispatch still running after %v (killed): the journal held up the decision\n%s", time.Since(start), errb.String())
	}
	if err != nil || !strings.Contains(out.String(), `"decision":"block"`) {
		e.t.Fatalf("dispatch: %v\nstdout: %s\nstderr: %s", err, out.String(), errb.String())
	}
	return errb.String()
}

func bigPayload() string {
	return `{"tool_name":"terminal","args":{"command":"` + strings.Repeat("x", 200<<10) + `"}}`
}

// A FIFO at the journal's name: opening it for writing succeeds (the
// writer is its own reader), but a record larger than the pipe's buffer
// blocked the write for ever, under the lock, before the decision was
// printed; the process did not even end on SIGTERM.
func TestJournalFIFODelaysNoDecision(t *testing.T) {
	e := journalEnv(t)
	if err := syscall.Mkfifo(e.path("home/hook-journal.jsonl"), 0o600); err != nil {
		t.Fatal(err)
	}
	stderr := e.dispatchWithin(bigPayload())
	if !strings.Contains(stderr, "not a regular file") {
		t.Errorf("no warning that the journal is not a file: %q", stderr)
	}
}

// A FIFO where the newest rotated file would be: with an empty live file
// the writer opens it to chain on from its last record, and the open
// blocked for ever.
func TestJournalRotatedFIFODelaysNoDecision(t *testing.T) {
	e := journalEnv(t)
	e.write("home/hook-journal.jsonl", "", 0o600)
	if err := syscall.Mkfifo(e.path("home/hook-journal.1.jsonl"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.dispatchWithin(`{"tool_name":"terminal"}`)
}

// A huge file at the journal's name (sparse: it costs no disk) whose only
// newline is its last byte: the writer read the whole last line into
// memory to hash it, 60 GiB, before deciding.
func TestJournalHugeLineDelaysNoDecision(t *testing.T) {
	e := journalEnv(t)
	p := e.path("home/hook-journal.jsonl")
	const size = 60 << 30
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt([]byte("\n"), size-1); err != nil {
		t.Skip("no sparse 60 GiB file here:", err)
	}
	f.Close()
	e.dispatchWithin(`{"tool_name":"terminal"}`)
	if fi, err := os.Stat(p); err != nil || fi.Size() != size {
		t.Fatalf("the file was changed: %v %v", fi.Size(), err)
	}
}

// A large file without any newline at the journal's name (journal.path
// naming the wrong file, or a file put there): the writer read all of it
// as a "torn" record and truncated it to nothing. A torn write is never
// longer than one record.
func TestJournalDoesNotTruncateAFileThatIsNoTornWrite(t *testing.T) {
	e := journalEnv(t)
	p := e.path("home/hook-journal.jsonl")
	data := bytes.Repeat([]byte("not a journal "), (32<<20)/14)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	e.dispatchWithin(`{"tool_name":"terminal"}`)
	got, err := os.ReadFile(p)
	if err != nil || !bytes.Equal(got, data) {
		t.Fatalf("the file was changed: %d bytes of %d, %v", len(got), len(data), err)
	}
}

// A FIFO at the export spool's name: a one-shot dispatch appends its
// record there before it answers, and opening a FIFO nobody reads for
// writing blocked for ever (docs/export.md: "nothing export does can change
// or delay the journal or the decision").
func TestExportSpoolFIFODelaysNoDecision(t *testing.T) {
	e := journalEnv(t)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+e.path("block.sh")+
		"\n      matcher: terminal\nexport:\n  file: "+e.path("decisions.jsonl")+"\n", 0o644)
	if err := os.MkdirAll(e.path("home/export-spool"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(e.path("home/export-spool/spool.jsonl"), 0o600); err != nil {
		t.Fatal(err)
	}
	e.dispatchWithin(`{"tool_name":"terminal"}`)
	if data, err := os.ReadFile(e.path("home/hook-journal.jsonl")); err != nil || !strings.Contains(string(data), `"decision":"block"`) {
		t.Fatalf("the journal lost the record: %v %q", err, data)
	}
}

// A journal whose lock another process holds neither changes a hook
// call's decision nor holds it past the agent's deadline: the record gives
// up when the deadline comes. The old dispatch waited out the journal's
// 2 s bound inside the 1.75 s deadline of an agent that waits 2 s, and its
// answer was then thrown away as late: the guard had allowed the call, and
// the agent was told "its guards did not answer in time" (after the
// deadline, which an agent that gave up reads as no answer).
func TestJournalLockHeldChangesNoHookDecision(t *testing.T) {
	e := newEnv(t)
	e.write("allow.sh", "#!/bin/sh\ncat >/dev/null\necho '{}'\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  pre_tool_call:\n    - command: "+e.path("allow.sh")+"\n", 0o644)
	e.run("", "approve", e.path("allow.sh"))
	lock, err := os.OpenFile(e.path("home/hook-journal.jsonl.lock"), os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	payload := `{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls"},"cwd":"` + e.dir + `"}`
	c := e.cmd(payload, "hook", "claude", "PreToolUse", "--agent-timeout", "2")
	var out, errb bytes.Buffer
	c.Stdout, c.Stderr = &out, &errb
	if err := c.Run(); err != nil {
		t.Fatalf("hook: %v\n%s", err, errb.String())
	}
	if strings.Contains(out.String(), "deny") || strings.Contains(errb.String(), "did not answer in time") {
		t.Fatalf("the held journal changed the decision:\nstdout: %s\nstderr: %s", out.String(), errb.String())
	}
	if !strings.Contains(errb.String(), "decision journal: cannot record") {
		t.Errorf("no warning that the record was dropped: %s", errb.String())
	}
}
