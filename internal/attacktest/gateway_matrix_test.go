//go:build linux

package attacktest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Issue 31 items 1 and 5, the gateway's part of the fail-closed matrix:
// for every event on which a failing fail_closed guard blocks although it
// gates no tool call (the catalog's FailsClosed and not Gating:
// pre_gateway_dispatch, whose block drops the message) × every way such a
// guard can fail to be evaluated, the answer Hermes reads is that event's
// refusal in Hermes' wire shape (for pre_gateway_dispatch {"action":
// "skip", "reason": …}: the message is dropped) — through `dispatch EVENT
// --format hermes`, as the plugin runs it, and through the Hermes plugin
// itself (clients/python) — and the journal holds the refused firing.
// A new such event in the catalog, or a new failure, is a new row.

// gwFailure is one way a fail_closed guard cannot be evaluated. The row's
// guard is ./guard.sh, approved, in $HERMES_HOME/config.yaml.
type gwFailure struct {
	name string
	// body is the guard script after its #!/bin/sh line and reading its
	// payload ("" for one that would drop the message itself, so that
	// only the failure can be what drops it: see gwGuard).
	body string
	// yaml is more of the guard's entry (its timeout).
	yaml string
	// after breaks the row once the guard is approved.
	after func(t *testing.T, e *env)
	// payload replaces the event's fields on stdin (dispatch path), and
	// pyFields the keyword arguments' Python expression (plugin path).
	payload, pyFields string
	// bin replaces hermes-hooks itself for the plugin (a body for a
	// stand-in program, "missing" for none): a plugin-path-only row.
	bin string
	// pyTimeout is HERMES_HOOKS_TIMEOUT for the plugin ("" for 60).
	pyTimeout string
	// noJournal: hermes-hooks never ran, so nothing can be recorded.
	noJournal bool
}

// gwGuard lets every message through: a row's drop can only come from its
// failure.
const gwGuard = `echo '{"action": "allow"}'`

func gwFailures() []gwFailure {
	return []gwFailure{
		{name: "guard_missing", after: func(t *testing.T, e *env) { gwMust(t, os.Remove(e.path("guard.sh"))) }},
		{name: "not_executable", after: func(t *testing.T, e *env) { gwMust(t, os.Chmod(e.path("guard.sh"), 0o644)) }},
		{name: "crashing", body: "kill -SEGV $$"},
		// The guard never answers: its own timeout (1 s, the only short
		// bound here) must fire, whatever the machine's load.
		{name: "hanging_past_its_timeout", body: "exec sleep 3600", yaml: "      timeout: 1\n"},
		{name: "garbage", body: "echo 'not json at all'"},
		{name: "exit_2_without_json", body: "echo refused >&2; exit 2"},
		{name: "exit_1", body: "exit 1"},
		{name: "changed_since_approval", after: func(t *testing.T, e *env) {
			f, err := os.OpenFile(e.path("guard.sh"), os.O_APPEND|os.O_WRONLY, 0)
			gwMust(t, err)
			_, err = f.WriteString("# edited after approval\n")
			gwMust(t, err)
			gwMust(t, f.Close())
		}},
		{name: "config_unreadable", after: func(t *testing.T, e *env) {
			e.write("home/config.yaml", "hooks:\n  pre_gateway_dispatch:\n    - command: ./guard.sh\n      fail_closed: [true\n", 0o644)
		}},
		// A fail_closed guard with no event to stand on: the config does
		// not load (hookconfig/vanish.go).
		{name: "event_misspelt", after: func(t *testing.T, e *env) {
			e.write("home/config.yaml", "hooks:\n  pre_gateway_dispatc:\n    - command: ./guard.sh\n      fail_closed: true\n", 0o644)
		}},
		{name: "hooks_not_a_mapping", after: func(t *testing.T, e *env) {
			e.write("home/config.yaml", "hooks:\n  - pre_gateway_dispatch:\n      - command: ./guard.sh\n        fail_closed: true\n", 0o644)
		}},
		// The plugin cannot send fields that are not JSON: a field it
		// cannot serialise (a list that holds itself) is its version.
		{name: "payload_unreadable", payload: "{not json", pyFields: "(lambda l: (l.append(l), dict(gwfields, extra=l))[1])([])"},
		// hermes-hooks itself gives no answer: only the plugin can see it.
		{name: "hermes_hooks_missing", bin: "missing", noJournal: true},
		{name: "hermes_hooks_exit_1", bin: "echo 'hermes-hooks: error: boom' >&2; exit 1", noJournal: true},
		{name: "hermes_hooks_garbage", bin: "echo 'not json'", noJournal: true},
		{name: "hermes_hooks_not_a_directive", bin: "echo '[\"skip\"]'", noJournal: true},
		// The stand-in never answers: the plugin's timeout (1 s) must fire.
		{name: "hermes_hooks_hanging", bin: "exec sleep 3600", pyTimeout: "1", noJournal: true},
	}
}

func gwMust(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// gatewayMatrixEvents are the catalog's events whose fail_closed guards
// block something other than a tool call, that Hermes fires (the plugin
// serves them).
func gatewayMatrixEvents() []*protocol.Event {
	var out []*protocol.Event
	for _, ev := range protocol.Events() {
		if ev.FailsClosed() && !ev.Gating() && ev.Hermes && !ev.ShellUnsupported {
			out = append(out, ev)
		}
	}
	return out
}

// gwMarker stands for the refusal's reason in the wire the oracle expects.
const gwMarker = "\x00reason\x00"

// gwRefusal checks that got (JSON) is ev's refusal on Hermes' wire: the
// shape the catalog renders for a block, with a non-empty reason.
func gwRefusal(ev *protocol.Event, got []byte) error {
	want := (&protocol.Outcome{Event: ev.Name, Decision: protocol.DecisionBlock, Message: gwMarker}).HermesWire()
	if len(want) == 0 {
		return fmt.Errorf("the catalog renders no refusal for %s on Hermes' wire", ev.Name)
	}
	var obj map[string]any
	if err := json.Unmarshal(bytes.TrimSpace(got), &obj); err != nil {
		return fmt.Errorf("not a JSON object: %q", got)
	}
	if len(obj) != len(want) {
		return fmt.Errorf("%s, want the refusal's %d members %v", got, len(want), want)
	}
	for _, kv := range want {
		v, ok := obj[kv.Key]
		switch {
		case !ok:
			return fmt.Errorf("%s: no %q", got, kv.Key)
		case kv.Value == gwMarker:
			if s, _ := v.(string); strings.TrimSpace(s) == "" {
				return fmt.Errorf("%s: %q is no reason", got, kv.Key)
			}
		case v != kv.Value:
			return fmt.Errorf("%s: %q is %v, want %v", got, kv.Key, v, kv.Value)
		}
	}
	return nil
}

// gwPlugin fires ev through the Hermes plugin as Hermes would: register
// it on a context, call the callback with keyword arguments. It prints
// the callback's return as JSON, or RAISED and the exception.
const gwPlugin = `
import json, sys
from types import SimpleNamespace
from hermes_hooks import hermes_plugin

class Ctx:
    hooks = {}
    def register_hook(self, event, callback):
        self.hooks[event] = callback

event = sys.argv[1]
source = SimpleNamespace(platform="telegram", chat_id="c1", chat_type="dm", chat_name="", thread_id="",
                         user_id="stranger", user_name="s")
gwfields = dict(event=SimpleNamespace(text="hi", message_id="m1", source=source), gateway=object(),
                session_store=None)
fields = eval(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] else gwfields
ctx = Ctx()
hermes_plugin.register(ctx)
try:
    got = ctx.hooks[event](**fields)
except BaseException as e:
    print("RAISED %s: %s" % (type(e).__name__, e))
    sys.exit(0)
print(json.dumps(got))
`

var gwPython = sync.OnceValues(func() (string, error) {
	py, err := exec.LookPath("python3")
	if err != nil {
		return "", err
	}
	dir, err := filepath.Abs(filepath.Join("..", "..", "clients", "python"))
	return py + "\x00" + dir, err
})

func TestGatewayFailClosedMatrix(t *testing.T) {
	events := gatewayMatrixEvents()
	// Not vacuous: the catalog's gateway guard event is a row.
	if len(events) == 0 || !contains(events, "pre_gateway_dispatch") {
		t.Fatalf("gateway matrix events %v: want pre_gateway_dispatch among them", events)
	}
	for _, ev := range events {
		for _, f := range gwFailures() {
			if f.bin == "" {
				t.Run(ev.Name+"/dispatch/"+f.name, func(t *testing.T) {
					t.Parallel()
					gwDispatchRow(t, ev, f)
				})
			}
			t.Run(ev.Name+"/plugin/"+f.name, func(t *testing.T) {
				t.Parallel()
				gwPluginRow(t, ev, f)
			})
		}
	}
}

func contains(events []*protocol.Event, name string) bool {
	for _, ev := range events {
		if ev.Name == name {
			return true
		}
	}
	return false
}

// gwSetup is a row's home: the approved fail_closed guard, then broken.
func gwSetup(t *testing.T, ev *protocol.Event, f gwFailure) *env {
	e := newEnv(t)
	body := f.body
	if body == "" {
		body = gwGuard
	}
	e.write("guard.sh", "#!/bin/sh\ncat > /dev/null\n"+body+"\n", 0o755)
	e.write("home/config.yaml", "hooks:\n  "+ev.Name+":\n    - command: ./guard.sh\n      fail_closed: true\n"+f.yaml, 0o644)
	e.run("", "approve", "--all")
	if f.after != nil {
		f.after(t, e)
	}
	return e
}

func gwDispatchRow(t *testing.T, ev *protocol.Event, f gwFailure) {
	e := gwSetup(t, ev, f)
	payload := f.payload
	if payload == "" {
		payload = `{"platform": "telegram", "chat_type": "dm", "user_id": "stranger", "text": "hi"}`
	}
	var out, errb bytes.Buffer
	c := e.cmd(payload, "dispatch", ev.Name, "--format", "hermes")
	c.Stdout, c.Stderr = &out, &errb
	gwMust(t, c.Start())
	if code := finish(t, c); code != 0 {
		t.Fatalf("dispatch %s exited %d (Hermes' plugin then delivers the message)\nstdout %q\nstderr %s", ev.Name, code, out.String(), errb.String())
	}
	if err := gwRefusal(ev, out.Bytes()); err != nil {
		t.Fatalf("dispatch %s: %v\nstderr %s", ev.Name, err, errb.String())
	}
	if !gwJournalRefused(e, ev) {
		t.Fatalf("no refused %s on the journal", ev.Name)
	}
}

func gwPluginRow(t *testing.T, ev *protocol.Event, f gwFailure) {
	pyAndPath, err := gwPython()
	if err != nil {
		t.Skipf("python3 needed for the plugin path: %v", err)
	}
	py, pypath, _ := strings.Cut(pyAndPath, "\x00")
	e := gwSetup(t, ev, f)
	bin := binary
	switch f.bin {
	case "":
	case "missing":
		bin = e.path("no-such-hermes-hooks")
	default:
		bin = e.path("standin-hermes-hooks")
		e.write("standin-hermes-hooks", "#!/bin/sh\ncat > /dev/null\n"+f.bin+"\n", 0o755)
	}
	timeout := f.pyTimeout
	if timeout == "" {
		timeout = "60"
	}
	var out, errb bytes.Buffer
	c := exec.Command(py, "-c", gwPlugin, ev.Name, f.pyFields)
	c.Dir, c.Stdout, c.Stderr = e.dir, &out, &errb
	c.Env = append(e.vars, "PYTHONPATH="+pypath, "HERMES_HOOKS_BIN="+bin, "HERMES_HOOKS_SERVER=off",
		"HERMES_HOOKS_TIMEOUT="+timeout, "HERMES_HOOKS_CONFIG=", "HERMES_HOOKS_EVENTS=")
	gwMust(t, c.Start())
	if code := finish(t, c); code != 0 {
		t.Fatalf("python3 exited %d\n%s", code, errb.String())
	}
	if strings.HasPrefix(out.String(), "RAISED") {
		t.Fatalf("the plugin raised into Hermes (which then delivers the message): %s\n%s", strings.TrimSpace(out.String()), errb.String())
	}
	if err := gwRefusal(ev, out.Bytes()); err != nil {
		t.Fatalf("plugin on %s: %v\nstderr %s", ev.Name, err, errb.String())
	}
	// Fields the plugin cannot serialise never reach hermes-hooks either.
	if !f.noJournal && f.pyFields == "" && !gwJournalRefused(e, ev) {
		t.Fatalf("no refused %s on the journal", ev.Name)
	}
}

// gwJournalRefused reports whether the journal holds a refused firing of
// ev.
func gwJournalRefused(e *env, ev *protocol.Event) bool {
	data, _ := os.ReadFile(e.path("home/hook-journal.jsonl"))
	for _, line := range bytes.Split(data, []byte("\n")) {
		var r struct{ Event, Decision string }
		if json.Unmarshal(line, &r) == nil && r.Event == ev.Name && r.Decision == string(protocol.DecisionBlock) {
			return true
		}
	}
	return false
}
