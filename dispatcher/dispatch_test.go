package dispatcher

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// hangBound is how long any single dispatch in these tests may take before
// we call it a hang. It only catches hangs (a minute against hours); it is
// not a performance assertion, and it leaves room for a loaded machine
// (make stress beside make test).
const hangBound = 60 * time.Second

// script writes an executable /bin/sh script and returns its path; on
// Windows, the path of its .cmd twin (hookscript_test.go).
func script(t *testing.T, dir, name, body string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if runtime.GOOS == "windows" {
		body = portableBody(body)
	}
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "windows" {
		return scriptTwin(t, p)
	}
	return p
}

// dispatcherFor builds a dispatcher from YAML that runs every hook.
func dispatcherFor(t *testing.T, yml string) *Dispatcher {
	t.Helper()
	cfg, err := hookconfig.ParseConfig([]byte(yml), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}

	for _, w := range cfg.Warnings {
		t.Logf("config warning: %s", w)
	}
	d, err := New(cfg, Options{Gate: AllowAll})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func dispatch(t *testing.T, d *Dispatcher, event string, fields map[string]any) protocol.Outcome {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangBound)
	defer cancel()
	start := time.Now()
	o, err := d.Dispatch(ctx, event, fields)
	if err != nil {
		t.Fatalf("Dispatch: %v", err)
	}
	if time.Since(start) >= hangBound {
		t.Fatalf("dispatch hung for %v", time.Since(start))
	}
	return o
}

func hookYAML(event, command string, extra ...string) string {
	y := "hooks:\n  " + event + ":\n    - command: " + strconv.Quote(command) + "\n"
	for _, e := range extra {
		y += "      " + e + "\n"
	}
	return y
}

func onlyReport(t *testing.T, o protocol.Outcome) protocol.HookReport {
	t.Helper()
	if len(o.Hooks) != 1 {
		t.Fatalf("want 1 hook report, got %d: %+v", len(o.Hooks), o.Hooks)
	}
	return o.Hooks[0]
}

var terminalCall = map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}}

// Hermes checklist section D (TestCallbackSubprocess), through real processes.
func TestD34_SlowObserverTimesOutFailOpen(t *testing.T) {
	dir := t.TempDir()
	s := script(t, dir, "slow.sh", "sleep 60")
	d := dispatcherFor(t, hookYAML("post_tool_call", s, "timeout: 1"))
	o := dispatch(t, d, "post_tool_call", terminalCall)
	r := onlyReport(t, o)
	if !r.TimedOut || r.Contribution != nil || o.Decision != protocol.DecisionNone {
		t.Fatalf("report %+v outcome %+v", r, o)
	}
}

func TestD35_NotJSONContributesNothing(t *testing.T) {
	s := script(t, t.TempDir(), "h.sh", "echo 'not json at all'")
	o := dispatch(t, dispatcherFor(t, hookYAML("pre_tool_call", s)), "pre_tool_call", terminalCall)
	if r := onlyReport(t, o); r.Contribution != nil || !strings.Contains(r.Note, "not valid JSON") {
		t.Fatalf("report %+v", r)
	}
}

func TestD36_BlockJSONWithExit1Blocks(t *testing.T) {
	s := script(t, t.TempDir(), "h.sh", `echo '{"action":"block","message":"via exit 1"}'; exit 1`)
	o := dispatch(t, dispatcherFor(t, hookYAML("pre_tool_call", s)), "pre_tool_call", terminalCall)
	if o.Decision != protocol.DecisionBlock || o.Message != "via exit 1" {
		t.Fatalf("outcome %+v", o)
	}
}

func TestD37_ClaudeStyleBlockWithMatcher(t *testing.T) {
	s := script(t, t.TempDir(), "h.sh", `echo '{"decision":"block","reason":"no terminal"}'`)
	d := dispatcherFor(t, hookYAML("pre_tool_call", s, "matcher: terminal"))
	o := dispatch(t, d, "pre_tool_call", terminalCall)
	if o.Decision != protocol.DecisionBlock || o.Message != "no terminal" {
		t.Fatalf("outcome %+v", o)
	}
	w := o.HermesWire()
	if string(pyjson.Encode(w, pyjson.Compact)) != `{"action":"block","message":"no terminal"}` {
		t.Fatalf("wire %s", pyjson.Encode(w, pyjson.Compact))
	}
}

func TestD38_ConfigBlockHelper(t *testing.T) {
	s := script(t, t.TempDir(), "h.sh", `echo '{"action":"block","message":"blocked-by-shell"}'`)
	o := dispatch(t, dispatcherFor(t, hookYAML("pre_tool_call", s, "matcher: terminal")), "pre_tool_call", terminalCall)
	if !o.Blocked() || o.Message != "blocked-by-shell" {
		t.Fatalf("outcome %+v", o)
	}
}

func TestD39_PayloadFieldsReachTheScript(t *testing.T) {
	dir := t.TempDir()
	capture := filepath.Join(dir, "payload.json")
	s := script(t, dir, "cap.sh", "cat > "+capture)
	d := dispatcherFor(t, hookYAML("pre_tool_call", s))
	dispatch(t, d, "pre_tool_call", map[string]any{
		"tool_name": "terminal", "args": map[string]any{"command": "ls"},
		"session_id": "sess-77", "task_id": "task-77",
	})
	raw, err := os.ReadFile(capture)
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatalf("payload %q: %v", raw, err)
	}
	if p["hook_event_name"] != "pre_tool_call" || p["tool_name"] != "terminal" || p["session_id"] != "sess-77" {
		t.Fatalf("payload %s", raw)
	}
	if ti, _ := p["tool_input"].(map[string]any); ti["command"] != "ls" {
		t.Fatalf("tool_input %v", p["tool_input"])
	}
	if ex, _ := p["extra"].(map[string]any); ex["task_id"] != "task-77" {
		t.Fatalf("extra %v", p["extra"])
	}
	if !strings.HasPrefix(string(raw), `{"hook_event_name": "pre_tool_call", "tool_name": "terminal"`) {
		t.Fatalf("payload must be Python-formatted in Hermes key order: %s", raw)
	}
}

func TestD40_ContextOnPreLLMCall(t *testing.T) {
	s := script(t, t.TempDir(), "h.sh", `echo '{"context":"env-note"}'`)
	o := dispatch(t, dispatcherFor(t, hookYAML("pre_llm_call", s)), "pre_llm_call", map[string]any{"session_id": "s"})
	if o.Context != "env-note" {
		t.Fatalf("outcome %+v", o)
	}
}

func TestD41_QuotedPathWithSpaces(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "dir with spaces")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	s := script(t, dir, "my hook.sh", `echo '{}'`)
	d := dispatcherFor(t, hookYAML("pre_tool_call", `"`+s+`"`))
	r := onlyReport(t, dispatch(t, d, "pre_tool_call", terminalCall))
	if !r.Ran || r.Error != "" || r.ExitCode == nil || *r.ExitCode != 0 || r.Contribution != nil {
		t.Fatalf("report %+v", r)
	}
}

func TestD42_MissingCommand(t *testing.T) {
	d := dispatcherFor(t, hookYAML("on_session_start", "/nonexistent/hook.sh"))
	r := onlyReport(t, dispatch(t, d, "on_session_start", nil))
	if r.Error != "command not found" || r.Contribution != nil || r.Ran {
		t.Fatalf("report %+v", r)
	}
	d = dispatcherFor(t, hookYAML("on_session_start", "no-such-command-anywhere-xyz arg"))
	if r := onlyReport(t, dispatch(t, d, "on_session_start", nil)); r.Error != "command not found" {
		t.Fatalf("PATH lookup: report %+v", r)
	}
}

func TestD43_NotExecutable(t *testing.T) {
	p := filepath.Join(t.TempDir(), "h.sh")
	if err := os.WriteFile(p, []byte("#!/bin/sh\necho '{}'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		// root may execute a file without x bits only if some x bit is set;
		// with none set exec still fails with EACCES.
		t.Log("running as root")
	}
	r := onlyReport(t, dispatch(t, dispatcherFor(t, hookYAML("pre_tool_call", p)), "pre_tool_call", terminalCall))
	// The error is the reason validate and doctor give (issue 24 item 3),
	// not Hermes' bare "command not executable".
	want := p + ": permission denied: not executable (chmod +x " + p + ")"
	if runtime.GOOS == "windows" {
		// No execute bit there: the extension decides (PATHEXT).
		want, _, _ = strings.Cut(r.Error, " (its extension")
		if want != p+": not a program Windows starts" {
			t.Fatalf("report %+v", r)
		}
		want = r.Error
	}
	if r.Error != want || r.Contribution != nil || r.Ran {
		t.Fatalf("report %+v, want error %q", r, want)
	}
}

func TestD44_ModifyArgs(t *testing.T) {
	s := script(t, t.TempDir(), "h.sh", `echo '{"action":"modify","args":{"path":"/safe"}}'`)
	o := dispatch(t, dispatcherFor(t, hookYAML("pre_tool_call", s)), "pre_tool_call",
		map[string]any{"tool_name": "write_file", "args": map[string]any{"path": "/etc/x", "content": "c"}})
	if o.Args["path"] != "/safe" || o.Args["content"] != "c" || o.Decision != protocol.DecisionNone {
		t.Fatalf("outcome %+v", o)
	}
	if got := string(pyjson.Encode(o.HermesWire(), pyjson.Compact)); got != `{"action":"modify","args":{"content":"c","path":"/safe"}}` {
		t.Fatalf("wire %s", got)
	}
}

func TestD45_DecisionModifyToolInput(t *testing.T) {
	s := script(t, t.TempDir(), "h.sh", `echo '{"decision":"modify","tool_input":{"content":"safe"}}'`)
	o := dispatch(t, dispatcherFor(t, hookYAML("pre_tool_call", s)), "pre_tool_call", map[string]any{"tool_name": "write_file"})
	if o.Args["content"] != "safe" {
		t.Fatalf("outcome %+v", o)
	}
}

// Hermes checklist section I (TestFailSemanticsEndToEnd).
func TestI84_Exit2StderrBlocks(t *testing.T) {
	s := script(t, t.TempDir(), "h.sh", `echo 'rm -rf is not permitted' >&2; exit 2`)
	o := dispatch(t, dispatcherFor(t, hookYAML("pre_tool_call", s)), "pre_tool_call", terminalCall)
	if !o.Blocked() || o.Message != "rm -rf is not permitted" {
		t.Fatalf("outcome %+v", o)
	}
}

func TestI85_FailClosedMissingCommand(t *testing.T) {
	d := dispatcherFor(t, hookYAML("pre_tool_call", "/nonexistent/guard.sh", "fail_closed: true"))
	o := dispatch(t, d, "pre_tool_call", terminalCall)
	if !o.Blocked() || !strings.Contains(o.Message, "failed closed") || !strings.Contains(o.Message, "command not found") {
		t.Fatalf("outcome %+v", o)
	}
}

func TestI86_Exit2Denied(t *testing.T) {
	s := script(t, t.TempDir(), "h.sh", `echo denied >&2; exit 2`)
	run := dispatcherFor(t, hookYAML("pre_tool_call", s)).runOne(t, "pre_tool_call", terminalCall)
	if run.Report.ExitCode == nil || *run.Report.ExitCode != 2 || run.Report.Contribution == nil || run.Report.Contribution.Message != "denied" {
		t.Fatalf("run %+v", run.Report)
	}
}

func TestI87_FailClosedTimeout(t *testing.T) {
	s := script(t, t.TempDir(), "h.sh", `sleep 5`)
	run := dispatcherFor(t, hookYAML("pre_tool_call", s, "timeout: 1", "fail_closed: true")).runOne(t, "pre_tool_call", terminalCall)
	c := run.Report.Contribution
	if !run.Report.TimedOut || c == nil || c.Decision != protocol.DecisionBlock || !strings.Contains(c.Message, "failed closed") || !strings.Contains(c.Message, "timed out after 1s") {
		t.Fatalf("run %+v", run.Report)
	}
}

// Our fix for Hermes #102405: a fail_closed guard that crashes silently blocks.
func TestFailClosedCrashWithEmptyStdoutBlocks(t *testing.T) {
	s := script(t, t.TempDir(), "h.sh", `exit 1`)
	o := dispatch(t, dispatcherFor(t, hookYAML("pre_tool_call", s, "fail_closed: true")), "pre_tool_call", terminalCall)
	if !o.Blocked() || !strings.Contains(o.Message, "failed closed") {
		t.Fatalf("outcome %+v", o)
	}
	o = dispatch(t, dispatcherFor(t, hookYAML("pre_tool_call", s)), "pre_tool_call", terminalCall)
	if o.Blocked() {
		t.Fatalf("fail-open crash must not block: %+v", o)
	}
}

func (d *Dispatcher) runOne(t *testing.T, event string, fields map[string]any) HookRun {
	t.Helper()
	ev, _ := protocol.Lookup(event)
	entries := d.EntriesFor(ev)
	if len(entries) != 1 {
		t.Fatalf("want 1 entry")
	}
	ctx, cancel := context.WithTimeout(context.Background(), hangBound)
	defer cancel()
	return d.RunEntry(ctx, ev, entries[0], fields)
}

// C33: a matcher filters which firings start the script.
func TestC33_MatcherFiltersRuns(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	s := script(t, dir, "h.sh", "cat >> "+log+"; echo >> "+log)
	d := dispatcherFor(t, hookYAML("pre_tool_call", s, "matcher: terminal"))
	for _, tool := range []string{"terminal", "web_search", "file_read"} {
		dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": tool})
	}
	raw, _ := os.ReadFile(log)
	if n := strings.Count(string(raw), "hook_event_name"); n != 1 {
		t.Fatalf("script ran %d times, want 1: %s", n, raw)
	}
}

func TestChildEnvironmentHasHermesHooks(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "env")
	s := script(t, dir, "h.sh", `echo "$HERMES_HOOKS" > `+out)
	dispatch(t, dispatcherFor(t, hookYAML("on_session_start", s)), "on_session_start", nil)
	if raw, _ := os.ReadFile(out); strings.TrimSpace(string(raw)) != "1" {
		t.Fatalf("HERMES_HOOKS=%q", raw)
	}
}

func TestTildeExpandedInEveryWord(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	script(t, home, "h.sh", `echo '{"context":"from home"}'`)
	command := "/bin/sh ~/h.sh"
	if runtime.GOOS == "windows" {
		// ~ is %USERPROFILE% there; the test binary stands in for the
		// shell (hookscript_test.go).
		t.Setenv("USERPROFILE", home)
		exe, err := os.Executable()
		if err != nil {
			t.Fatal(err)
		}
		command = `"` + exe + `" ` + hookScriptFlag + ` ~/h.sh`
	}
	o := dispatch(t, dispatcherFor(t, hookYAML("pre_llm_call", command)), "pre_llm_call", nil)
	if o.Context != "from home" {
		t.Fatalf("outcome %+v", o)
	}
}

func TestUnparseableCommand(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows splits commands by CommandLineToArgvW's rules, under which every text splits (an open quote runs to the end)")
	}
	o := dispatch(t, dispatcherFor(t, hookYAML("pre_tool_call", `/bin/echo 'unterminated`)), "pre_tool_call", terminalCall)
	if r := onlyReport(t, o); r.Error != `command '/bin/echo 'unterminated' cannot be parsed: No closing quotation` {
		t.Fatalf("report %+v", r)
	}
}

// The fold follows config order even when hooks finish in the other order.
// The first hook waits until the second has finished, so the completion order
// is the reverse of the config order — observed, not timed.
func TestFoldUsesConfigOrderNotCompletionOrder(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "second-done")
	first := script(t, dir, "first.sh", `i=0; while [ ! -e `+marker+` ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i+1)); done; echo '{"action":"block","message":"first"}'`)
	second := script(t, dir, "second.sh", `echo '{"action":"block","message":"second"}'; touch `+marker)
	yml := "hooks:\n  pre_tool_call:\n    - command: " + first + "\n    - command: " + second + "\n"
	o := dispatch(t, dispatcherFor(t, yml), "pre_tool_call", terminalCall)
	if o.Message != "first" {
		t.Fatalf("message %q, want the first hook's (config order)", o.Message)
	}
	if _, err := os.Stat(marker); err != nil {
		t.Fatal("second hook did not run")
	}
}

// All matching hooks run at once: each waits until every one has started,
// which only completes if they run concurrently (sequential runs would each
// give up after 1000 looks, at least ten seconds, and print nothing). The
// timeout is a hang guard: starting four shells on a loaded machine can
// take seconds.
func TestHooksRunInParallel(t *testing.T) {
	dir := t.TempDir()
	const n = 4
	yml := "hooks:\n  pre_tool_call:\n"
	for i := 0; i < n; i++ {
		s := script(t, dir, "h"+strconv.Itoa(i)+".sh",
			`touch `+dir+`/started-`+strconv.Itoa(i)+`; i=0; while [ "$(ls `+dir+` | grep -c started-)" -lt `+strconv.Itoa(n)+` ] && [ $i -lt 1000 ]; do sleep 0.01; i=$((i+1)); done; [ "$(ls `+dir+` | grep -c started-)" -ge `+strconv.Itoa(n)+` ] && echo '{"context":"ok"}'`)
		yml += "    - command: " + s + "\n      timeout: 60\n"
	}
	o := dispatch(t, dispatcherFor(t, strings.Replace(yml, "pre_tool_call", "pre_llm_call", 1)), "pre_llm_call", nil)
	if strings.Count(o.Context, "ok") != n {
		t.Fatalf("hooks did not all see each other running: context %q reports %+v", o.Context, o.Hooks)
	}
}

// Acceptance: a hook whose grandchild sleeps an hour holding stdout, with
// a short timeout, returns long before the hour (dispatch's hang guard) and
// leaves nothing of its group behind.
func TestGrandchildHoldingStdoutIsKilled(t *testing.T) {
	for _, body := range []string{
		"echo $$ > PIDFILE; sleep 3600 & wait",       // hook waits for it: timeout kills the group
		"echo $$ > PIDFILE; (sleep 3600 &) ; exit 0", // hook exits, grandchild keeps the pipe
	} {
		// The hook must have written its pid before its timeout kills it:
		// on a loaded machine that can take more than a second.
		proctest.GrowTimeout(t, time.Second, 32*time.Second, func(timeout time.Duration) bool {
			dir := t.TempDir()
			pidfile := filepath.Join(dir, "pid")
			s := script(t, dir, "h.sh", strings.ReplaceAll(body, "PIDFILE", pidfile))
			d := dispatcherFor(t, hookYAML("pre_tool_call", s, "timeout: "+strconv.Itoa(int(timeout/time.Second))))
			o := dispatch(t, d, "pre_tool_call", terminalCall)
			raw, err := os.ReadFile(pidfile)
			if err != nil {
				return false
			}
			pgid, _ := strconv.Atoi(strings.TrimSpace(string(raw)))
			if !waitGroupGone(pgid, hangBound) {
				t.Fatalf("%q: processes of group %d remain: %v", body, pgid, proctest.LiveGroupMembers(pgid))
			}
			t.Logf("%q: report %+v", body, o.Hooks[0])
			return true
		})
	}
}

// waitGroupGone polls /proc until no live process of the group remains.
// A killed process needs its parent to reap it; polling an observable
// condition with a deadline, not sleeping a guessed time.
func waitGroupGone(pgid int, bound time.Duration) bool {
	deadline := time.Now().Add(bound)
	for {
		if len(proctest.LiveGroupMembers(pgid)) == 0 {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Acceptance: a hook printing 1 GiB keeps the dispatcher's memory bounded
// and the report says the output was truncated.
func TestGigabyteOfOutputIsBounded(t *testing.T) {
	if testing.Short() {
		t.Skip("1 GiB through a pipe")
	}
	if runtime.GOOS == "windows" && os.Getenv("WINEPREFIX") != "" {
		t.Skip("Wine: 1 GiB through its pipes takes minutes (about 4 MB/s)")
	}
	s := script(t, t.TempDir(), "flood.sh", "head -c 1073741824 /dev/zero")
	// A gigabyte takes a second or two through the pipe on an idle
	// machine, tens of seconds on a loaded one: the bounds here are hang
	// guards sized for the volume, not for a dispatch.
	d := dispatcherFor(t, hookYAML("post_tool_call", s, "timeout: 300"))
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	o, err := d.Dispatch(ctx, "post_tool_call", terminalCall)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	r := onlyReport(t, o)
	if !r.StdoutTruncated || !strings.Contains(r.Note, "truncated") {
		t.Fatalf("report %+v", r)
	}
	if grown := after.TotalAlloc - before.TotalAlloc; grown > 64<<20 {
		t.Fatalf("dispatcher allocated %d MiB for a 1 GiB hook output", grown>>20)
	}
}

// Acceptance: a hook that never reads a 10 MiB payload cannot hang us.
func TestUnreadLargePayload(t *testing.T) {
	big := strings.Repeat("x", 10<<20)
	dir := t.TempDir()
	for _, body := range []string{"exit 0", `echo '{"context":"ignored stdin"}'`, "sleep 3600"} {
		s := script(t, dir, "h.sh", body)
		// Only the hook that must time out has a short timeout; the
		// others must succeed however slowly a loaded machine starts them
		// (a write blocked on the unread payload would still end at the
		// timeout, failing the exit-code check).
		timeout := "timeout: 60"
		if body == "sleep 3600" {
			timeout = "timeout: 1"
		}
		d := dispatcherFor(t, hookYAML("pre_llm_call", s, timeout))
		o := dispatch(t, d, "pre_llm_call", map[string]any{"user_message": big})
		r := onlyReport(t, o)
		if body == "sleep 3600" && !r.TimedOut {
			t.Fatalf("%q: report %+v", body, r)
		}
		if body != "sleep 3600" && (r.ExitCode == nil || *r.ExitCode != 0) {
			t.Fatalf("%q: a hook that exits before the payload is written must still succeed: %+v", body, r)
		}
	}
}

// Acceptance: exit 2 with a 10 KiB stderr is cut to 400 characters.
func TestExit2LongStderrCutTo400(t *testing.T) {
	s := script(t, t.TempDir(), "h.sh", `head -c 10240 /dev/zero | tr '\0' 'e' >&2; exit 2`)
	o := dispatch(t, dispatcherFor(t, hookYAML("pre_tool_call", s)), "pre_tool_call", terminalCall)
	if !o.Blocked() || len(o.Message) != 400 || strings.Trim(o.Message, "e") != "" {
		t.Fatalf("message length %d", len(o.Message))
	}
}

func TestInvalidUTF8Output(t *testing.T) {
	s := script(t, t.TempDir(), "h.sh", `printf '{"context":"bad \377 byte"}'`)
	o := dispatch(t, dispatcherFor(t, hookYAML("pre_llm_call", s)), "pre_llm_call", nil)
	if !strings.Contains(o.Context, "\uFFFD") {
		t.Fatalf("context %q", o.Context)
	}
	if _, err := json.Marshal(o); err != nil {
		t.Fatal(err)
	}
}

func TestCancellationKillsHooks(t *testing.T) {
	dir := t.TempDir()
	pidfile := filepath.Join(dir, "pid")
	startedPath := filepath.Join(dir, "started")
	started, err := proctest.NewSignal(startedPath)
	waitStarted := func() error { return started.Wait(hangBound) }
	switch {
	case errors.Is(err, errors.ErrUnsupported):
		// No named pipes (Windows): the file the hook creates, looked for.
		waitStarted = func() error { return waitForFile(startedPath, hangBound) }
	case err != nil:
		t.Fatal(err)
	}
	s := script(t, dir, "h.sh", "echo $$ > "+pidfile+"; : > "+startedPath+"; sleep 3600")
	d := dispatcherFor(t, hookYAML("pre_tool_call", s, "timeout: 300"))
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan protocol.Outcome)
	go func() {
		o, err := d.Dispatch(ctx, "pre_tool_call", terminalCall)
		if !errors.Is(err, context.Canceled) {
			t.Errorf("a cancelled dispatch returned %v, want an error that is context.Canceled", err)
		}
		done <- o
	}()
	if err := waitStarted(); err != nil {
		t.Fatal("hook never started: ", err)
	}
	cancel()
	select {
	case o := <-done:
		r := onlyReport(t, o)
		if !strings.Contains(r.Error, "cancelled") || r.Contribution != nil {
			t.Fatalf("report %+v", r)
		}
	case <-time.After(hangBound):
		t.Fatal("cancel did not stop the dispatch")
	}
	raw, _ := os.ReadFile(pidfile)
	pgid, _ := strconv.Atoi(strings.TrimSpace(string(raw)))
	if !waitGroupGone(pgid, hangBound) {
		t.Fatalf("hook group %d survived cancellation", pgid)
	}
}

func TestGateRefusalSkipsAndReports(t *testing.T) {
	dir := t.TempDir()
	sentinel := filepath.Join(dir, "ran")
	s := script(t, dir, "h.sh", "touch "+sentinel)
	cfg, _ := hookconfig.ParseConfig([]byte(hookYAML("pre_tool_call", s)), "x.yaml")

	d, err := New(cfg, Options{Gate: GateFunc(func(Invocation) Verdict { return Verdict{Reason: "not allowlisted"} })})
	if err != nil {
		t.Fatal(err)
	}
	o := dispatch(t, d, "pre_tool_call", terminalCall)
	if r := onlyReport(t, o); r.Ran || r.Skipped != "not allowlisted" {
		t.Fatalf("report %+v", r)
	}
	if _, err := os.Stat(sentinel); err == nil {
		t.Fatal("a refused hook ran")
	}
	if _, err := New(cfg, Options{}); err == nil {
		t.Fatal("New without a Gate must fail")
	}
}

func TestUnknownEventIsAnError(t *testing.T) {
	d := dispatcherFor(t, "")
	_, err := d.Dispatch(context.Background(), "pre_tools_call", nil)
	ue, ok := err.(*UnknownEventError)
	if !ok || ue.Suggestion != "pre_tool_call" || !strings.Contains(err.Error(), "did you mean 'pre_tool_call'") {
		t.Fatalf("err %v", err)
	}
}

func TestAliasFiringRunsEntriesOfEveryAlias(t *testing.T) {
	dir := t.TempDir()
	h := script(t, dir, "h.sh", `echo '{"context":"hermes"}'`)
	c := script(t, dir, "c.sh", `echo '{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"claude"}}'`)
	yml := "hooks:\n  pre_llm_call:\n    - command: " + h + "\n  UserPromptSubmit:\n    - command: " + c + "\n"
	d := dispatcherFor(t, yml)
	for _, name := range []string{"pre_llm_call", "UserPromptSubmit", "before_llm_call"} {
		o := dispatch(t, d, name, map[string]any{"user_message": "hi"})
		if o.Context != "hermes\n\nclaude" || o.Event != "pre_llm_call" {
			t.Fatalf("fired as %s: outcome %+v", name, o)
		}
	}
}

func TestNoMatchAllocatesNothing(t *testing.T) {
	yml := "hooks:\n  post_tool_call:\n"
	for i := 0; i < 100; i++ {
		yml += "    - command: /bin/h" + strconv.Itoa(i) + "\n"
	}
	d := dispatcherFor(t, yml)
	ctx := context.Background()
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := d.Dispatch(ctx, "pre_tool_call", nil); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("no-match dispatch allocated %v times", allocs)
	}
}

// A hook that writes its reply, then exits leaving a child that holds its
// stdout: the reply already in the pipe must count (a guard's block must not
// be lost), and the holder is killed.
func TestReplyBeforeHeldPipeIsKept(t *testing.T) {
	dir := t.TempDir()
	pidfile := filepath.Join(dir, "pid")
	s := script(t, dir, "h.sh", `echo $$ > `+pidfile+`; head -c 60000 /dev/zero | tr '\0' ' '; echo '{"action":"block","message":"held"}'; (sleep 3600 &); exit 0`)
	o := dispatch(t, dispatcherFor(t, hookYAML("pre_tool_call", s, "timeout: 30")), "pre_tool_call", terminalCall)
	if !o.Blocked() || o.Message != "held" {
		t.Fatalf("outcome %+v", o)
	}
	raw, _ := os.ReadFile(pidfile)
	pgid, _ := strconv.Atoi(strings.TrimSpace(string(raw)))
	if !waitGroupGone(pgid, hangBound) {
		t.Fatalf("holder of group %d survived", pgid)
	}
}

// The gate checks the script the hook would run: a relative Claude command
// runs in the session's cwd, so that is where its approved hash is checked.
// Approving one project's hooks/g.sh must not let another project's run.
func TestGateChecksTheScriptThatRuns(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, d := range []string{a, b} {
		if err := os.MkdirAll(filepath.Join(d, "hooks"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script(t, filepath.Join(a, "hooks"), "g.sh", `echo "project a"`)
	script(t, filepath.Join(b, "hooks"), "g.sh", `echo "project b, not approved"`)
	cfg, err := hookconfig.ParseConfig([]byte("hooks:\n  UserPromptSubmit:\n    - command: sh hooks/g.sh\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}

	store := consent.NewStore(filepath.Join(root, "home"))
	if _, err := store.ApproveHook(consent.Request{Event: "UserPromptSubmit", Command: "sh hooks/g.sh", Dir: a}); err != nil {
		t.Fatal(err)
	}
	d, err := New(cfg, Options{Gate: ConsentGate(&consent.Policy{Store: store}), Cwd: root})
	if err != nil {
		t.Fatal(err)
	}
	if o := dispatch(t, d, "pre_llm_call", map[string]any{"cwd": a}); o.Context != "project a" {
		t.Fatalf("approved project: %+v", o)
	}
	o := dispatch(t, d, "pre_llm_call", map[string]any{"cwd": b})
	if o.Context != "" || o.Hooks[0].Ran || !strings.Contains(o.Hooks[0].Skipped, "changed since approval") {
		t.Fatalf("other project's script ran or was not refused: %+v", o.Hooks[0])
	}
}

// A host that builds entries by hand gets them completed by New: the
// matcher is compiled (hookconfig.Entry{Matcher: "terminal"} must not match every
// tool), the if rule too, and what hookconfig.Load fills in is filled in (issue 14).
func TestNewCompletesHandBuiltEntries(t *testing.T) {
	skipUnderWine(t)
	dir := t.TempDir()
	hook := script(t, dir, "block.sh", `cat >/dev/null; echo '{"action":"block","message":"no"}'`)
	ev, _ := protocol.Lookup("pre_tool_call")
	e := &hookconfig.Entry{Event: ev, Command: hook, Matcher: " terminal "}
	claude := script(t, dir, "deny.sh", `cat >/dev/null; echo no >&2; exit 2`)
	rm := &hookconfig.Entry{Event: ev, Command: claude, Dialect: protocol.Claude, Matcher: "Bash", If: "Bash(rm *)"}
	d, err := New(&hookconfig.Config{Entries: []*hookconfig.Entry{e}}, Options{Gate: AllowAll, Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	if o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "read_file", "args": map[string]any{"path": "x"}}); o.Blocked() {
		t.Errorf("a terminal matcher matched read_file: %+v", o)
	}
	if o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}}); !o.Blocked() {
		t.Errorf("a terminal matcher did not match terminal: %+v", o)
	}
	if e.DeclaredAs != "pre_tool_call" || e.Dialect != protocol.Hermes || e.Timeout != hookconfig.DefaultTimeoutSeconds*time.Second {
		t.Errorf("not completed: %q %q %v", e.DeclaredAs, e.Dialect, e.Timeout)
	}
	d, err = New(&hookconfig.Config{Entries: []*hookconfig.Entry{rm}}, Options{Gate: AllowAll, Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	if o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}}); o.Blocked() {
		t.Errorf("if Bash(rm *) ran on ls: %+v", o)
	}
	if o := dispatch(t, d, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "rm x"}}); !o.Blocked() {
		t.Errorf("if Bash(rm *) did not run on rm x: %+v", o)
	}
	if _, err := New(&hookconfig.Config{Entries: []*hookconfig.Entry{{Command: hook}}}, Options{Gate: AllowAll}); err == nil {
		t.Error("an entry without an event was accepted")
	}
}
