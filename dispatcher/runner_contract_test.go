//go:build linux

package dispatcher

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/proctest"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// The runner contract: a hook's reply means the same whichever runner
// carried it — a one-shot process (hookproc.Run), a kept-alive worker
// (hookproc.Pool) or an http post (internal/hookhttp). One table of cases
// runs through all three, each with a real process or a real server, and
// every case must fold to the same outcome. The hook is asked a command
// (the tool call's) that picks its reply from contractReplies, so the three
// hooks say byte for byte the same thing.

// contractCap is the dispatcher's output cap in these tests: contractReplies'
// "big" reply is over it, the others under it.
const contractCap = 1024

var contractReplies = map[string]string{
	"block":   `{"decision":"block","reason":"contract says no"}`,
	"allow":   ``,
	"invalid": `{"decision": "block"`, // cut short: not JSON
	"big":     `{"decision":"block","reason":"` + strings.Repeat("x", 4*contractCap) + `"}`,
}

// contractHook is the process hook, one-shot or worker (hookproc.WorkerEnv
// set). "hang" and "cancel" never reply; "cancel" first opens the signal
// pipe, so the test cancels a hook that has surely started. A worker adds
// the request id to a reply that is a JSON object ({} for the empty one)
// and sends any other reply as is, as a broken worker would.
const contractHook = `#!/usr/bin/env python3
import json, os, sys, time
replies = json.loads(os.environ["CONTRACT_REPLIES"])
def reply(p):
    cmd = p["tool_input"]["command"]
    if cmd == "cancel":
        open(os.environ["CONTRACT_SIGNAL"], "w").close()
    if cmd in ("hang", "cancel"):
        time.sleep(3600)
    return replies[cmd]
if os.environ.get("HERMES_HOOK_WORKER") != "1":
    sys.stdout.write(reply(json.load(sys.stdin)))
    sys.exit(0)
for line in sys.stdin:
    p = json.loads(line)
    out = reply(p)
    try:
        obj = json.loads(out or "{}")
        obj["hermes_hooks_request_id"] = p["hermes_hooks_request_id"]
        out = json.dumps(obj)
    except ValueError:
        pass
    print(out, flush=True)
`

type contractCase struct {
	name       string
	command    string // what the hook is asked
	failClosed bool
	timeout    time.Duration // the hook's; 0 is hangBound (a hang guard)
	cancel     bool          // cancel the dispatch once the hook has started

	want     protocol.Decision
	message  string // the outcome's message contains it
	recorded string // the hook's report (Note or Error) contains it; "" = says nothing
	timedOut bool
}

var contractCases = []contractCase{
	{name: "block", command: "block", want: protocol.DecisionBlock, message: "contract says no"},
	{name: "empty reply, allow", command: "allow", want: protocol.DecisionNone},
	{name: "invalid output", command: "invalid", want: protocol.DecisionNone, recorded: "JSON"},
	{name: "invalid output, fail_closed", command: "invalid", failClosed: true, want: protocol.DecisionBlock, message: "failed closed", recorded: "JSON"},
	{name: "timeout", command: "hang", timeout: 300 * time.Millisecond, want: protocol.DecisionNone, timedOut: true},
	{name: "timeout, fail_closed", command: "hang", failClosed: true, timeout: 300 * time.Millisecond, want: protocol.DecisionBlock, message: "timed out", timedOut: true},
	{name: "cancelled", command: "cancel", cancel: true, want: protocol.DecisionNone, recorded: "cancelled"},
	{name: "cancelled, fail_closed", command: "cancel", failClosed: true, cancel: true, want: protocol.DecisionNone, recorded: "cancelled"},
	// A block the cap cut: the agent would have honoured it whole, so it
	// is not "none" (protocol.CutReply), fail_closed or not.
	{name: "over the output cap", command: "big", want: protocol.DecisionBlock, message: "passed the output cap", recorded: "output cap"},
	{name: "over the output cap, fail_closed", command: "big", failClosed: true, want: protocol.DecisionBlock, message: "failed closed", recorded: "output cap"},
}

// contractRunner builds a dispatcher whose one pre_tool_call entry is run
// by one runner; started is what the test waits on before it cancels.
type contractRunner struct {
	name string
	new  func(t *testing.T, c contractCase) (d *Dispatcher, started func() error)
}

var contractRunners = []contractRunner{
	{"process", func(t *testing.T, c contractCase) (*Dispatcher, func() error) { return contractProcess(t, c, false) }},
	{"worker", func(t *testing.T, c contractCase) (*Dispatcher, func() error) { return contractProcess(t, c, true) }},
	{"http", contractHTTP},
}

func TestRunnerContract(t *testing.T) {
	for _, r := range contractRunners {
		for _, c := range contractCases {
			t.Run(r.name+"/"+c.name, func(t *testing.T) {
				d, started := r.new(t, c)
				o, err := contractDispatch(t, d, c, started)
				checkContract(t, c, o, err)
			})
		}
	}
}

func contractDispatch(t *testing.T, d *Dispatcher, c contractCase, started func() error) (protocol.Outcome, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangBound)
	defer cancel()
	if c.cancel {
		go func() {
			if err := started(); err != nil {
				t.Errorf("the hook did not start: %v", err)
			}
			cancel()
		}()
	}
	return d.Dispatch(ctx, "pre_tool_call", map[string]any{"tool_name": "terminal", "args": map[string]any{"command": c.command}})
}

func checkContract(t *testing.T, c contractCase, o protocol.Outcome, err error) {
	t.Helper()
	var cancelled *CancelledError
	if c.cancel != errors.As(err, &cancelled) || (err != nil && !c.cancel) {
		t.Fatalf("error %v, cancelled %v", err, c.cancel)
	}
	if c.cancel && errors.Is(err, context.DeadlineExceeded) {
		t.Fatal("the hang guard ended the dispatch, not the cancellation")
	}
	if len(o.Hooks) != 1 {
		t.Fatalf("%d hook reports: %+v", len(o.Hooks), o)
	}
	rep := o.Hooks[0]
	if o.Decision != c.want || !strings.Contains(o.Message, c.message) {
		t.Errorf("outcome %s %q, want %s containing %q", o.Decision, o.Message, c.want, c.message)
	}
	said := rep.Note + " | " + rep.Error
	if c.recorded == "" && said != " | " && !c.timedOut {
		t.Errorf("the hook's report says %q, want nothing", said)
	}
	if !strings.Contains(said, c.recorded) {
		t.Errorf("the hook's report says %q, want %q in it", said, c.recorded)
	}
	if rep.TimedOut != c.timedOut {
		t.Errorf("timed out %v, want %v (%+v)", rep.TimedOut, c.timedOut, rep)
	}
}

// contractEntry is the pre_tool_call entry of a Claude settings handler,
// with the case's limits.
func contractEntry(t *testing.T, handler string, c contractCase) *hookconfig.Entry {
	t.Helper()
	entries, warnings, err := parseClaudeSettings([]byte(`{"hooks":{"PreToolUse":[{"hooks":[`+handler+`]}]}}`), filepath.Join(t.TempDir(), "settings.json"))
	if err != nil || len(warnings) > 0 || len(entries) != 1 {
		t.Fatalf("settings: %v %v %d entries", err, warnings, len(entries))
	}
	e := entries[0]
	e.FailClosed = c.failClosed
	e.Timeout = c.timeout
	if e.Timeout == 0 {
		e.Timeout = hangBound
	}
	return e
}

func contractDispatcher(t *testing.T, e *hookconfig.Entry, env []string) *Dispatcher {
	t.Helper()
	cfg := &hookconfig.Config{Entries: []*hookconfig.Entry{e}, Tools: protocol.DefaultTools()}
	d, err := New(cfg, Options{Gate: AllowAll, Env: env, OutputCap: contractCap})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

func contractProcess(t *testing.T, c contractCase, worker bool) (*Dispatcher, func() error) {
	dir := t.TempDir()
	path := filepath.Join(dir, "hook.py")
	if err := proctest.WriteExecutable(path, []byte(contractHook)); err != nil {
		t.Fatal(err)
	}
	sig, err := proctest.NewSignal(filepath.Join(dir, "started"))
	if err != nil {
		t.Fatal(err)
	}
	replies, _ := json.Marshal(contractReplies)
	e := contractEntry(t, `{"type":"command","command":"`+path+`"}`, c)
	if worker {
		e.Spec = &hookconfig.WorkerSpec{CommandSpec: e.Exec(), Workers: 1, Idle: hookconfig.DefaultWorkerIdle}
	}
	env := append(os.Environ(), "CONTRACT_REPLIES="+string(replies), "CONTRACT_SIGNAL="+sig.Path())
	return contractDispatcher(t, e, env), func() error { return sig.Wait(hangBound) }
}

func contractHTTP(t *testing.T, c contractCase) (*Dispatcher, func() error) {
	started := make(chan struct{}, 1)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var p struct {
			ToolInput struct{ Command string } `json:"tool_input"`
		}
		body, _ := io.ReadAll(r.Body)
		if err := json.Unmarshal(body, &p); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		switch p.ToolInput.Command {
		case "cancel":
			started <- struct{}{}
			fallthrough
		case "hang":
			select {
			case <-r.Context().Done(): // the post ended: timed out or cancelled
			case <-release: // the test is over (a hang guard)
			}
			return
		}
		_, _ = io.WriteString(w, contractReplies[p.ToolInput.Command])
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) }) // runs before srv.Close
	e := contractEntry(t, `{"type":"http","url":"`+srv.URL+`/hook"}`, c)
	return contractDispatcher(t, e, os.Environ()), func() error {
		select {
		case <-started:
			return nil
		case <-time.After(hangBound):
			return errors.New("no post came")
		}
	}
}
