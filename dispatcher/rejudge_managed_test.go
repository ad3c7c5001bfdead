package dispatcher

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Which process hooks run again on a rewritten call: managed guards that
// ran to their end and neither refused nor rewrote the call themselves.
func TestManagedRejudges(t *testing.T) {
	zero := 0
	managedEntry := &hookconfig.Entry{Scope: consent.Scope{Managed: true}}
	ran := func(c *protocol.Contribution) *protocol.HookReport {
		return &protocol.HookReport{Ran: true, ExitCode: &zero, Contribution: c}
	}
	for _, tc := range []struct {
		name string
		e    *hookconfig.Entry
		rep  *protocol.HookReport
		want bool
	}{
		{"managed, no objection", managedEntry, ran(nil), true},
		{"managed, context only", managedEntry, ran(&protocol.Contribution{Context: "policy"}), true},
		{"the user's own guard", &hookconfig.Entry{}, ran(nil), false},
		{"managed bundle", &hookconfig.Entry{ManagedBundle: true}, ran(nil), true},
		{"managed, blocked already", managedEntry, ran(&protocol.Contribution{Decision: protocol.DecisionBlock}), false},
		{"managed, asked already", managedEntry, ran(&protocol.Contribution{Decision: protocol.DecisionAsk}), false},
		{"managed, its own rewrite", managedEntry, ran(&protocol.Contribution{Args: map[string]any{"command": "x"}}), false},
		{"managed, timed out", managedEntry, &protocol.HookReport{Ran: true, TimedOut: true}, false},
		{"managed, did not start", managedEntry, &protocol.HookReport{Error: "command not found"}, false},
		{"managed async", &hookconfig.Entry{Scope: consent.Scope{Managed: true}, Async: true}, ran(nil), false},
		{"managed opa: decided in-process, no exit status", managedEntry, &protocol.HookReport{Ran: true}, true},
		{"managed, cancelled", managedEntry, &protocol.HookReport{Ran: true, Error: "cancelled: context canceled"}, false},
	} {
		if got := managedRejudges(tc.e, tc.rep, false); got != tc.want {
			t.Errorf("%s: managedRejudges = %v, want %v", tc.name, got, tc.want)
		}
	}
	// Its own rewrite and another hook's: the call holds what it never saw.
	own := ran(&protocol.Contribution{Args: map[string]any{"command": "x"}})
	if !managedRejudges(managedEntry, own, true) {
		t.Error("a managed rewriter is not run again on another hook's rewrite")
	}
}

// A refusal on the second run replaces the first decision and says which
// call it refused; the first run's context stands. No refusal: the first
// report stands, with a note.
func TestManagedAgain(t *testing.T) {
	first := protocol.HookReport{Command: "./g.sh", ElapsedMS: 1, Contribution: &protocol.Contribution{Context: "policy"}}
	next := protocol.HookReport{Command: "./g.sh", ElapsedMS: 2, Contribution: &protocol.Contribution{Decision: protocol.DecisionBlock, Message: "no", Args: map[string]any{"a": 1}}}
	rep := first
	managedAgain(&rep, &next, "./rw.sh", false)
	c := rep.Contribution
	if c == nil || c.Decision != protocol.DecisionBlock || c.Message != "no (judged on the call as rewritten by ./rw.sh)" || c.Context != "policy" || c.Args != nil || !rep.Rejudged || rep.ElapsedMS != 3 {
		t.Errorf("after a refusal: %+v %+v", rep, c)
	}
	rep = first
	quiet := protocol.HookReport{ElapsedMS: 2, Contribution: &protocol.Contribution{Args: map[string]any{"a": 1}}}
	managedAgain(&rep, &quiet, "./rw.sh", false)
	if rep.Contribution != first.Contribution || rep.Rejudged || rep.Note != "run again on the call as rewritten by ./rw.sh: no objection" {
		t.Errorf("without a refusal: %+v", rep)
	}
}

// A managed opa: guard is run again on a rewritten call as a managed
// command guard is (docs/managed.md): its policy, asked about `make
// deploy`, refuses it. Its decision is read in-process, with no exit
// status; taking "no exit status" for "did not run to its end" let the
// rewrite through unjudged.
func TestManagedOPAJudgesTheRewrite(t *testing.T) {
	var posts atomic.Int64
	opa := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		posts.Add(1)
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), "make deploy") {
			_, _ = io.WriteString(w, `{"result":{"decision":"block","message":"managed: no deploy"}}`)
			return
		}
		_, _ = io.WriteString(w, `{}`)
	}))
	t.Cleanup(opa.Close)
	rw := script(t, t.TempDir(), "rewrite.sh", `echo '{"action":"modify","args":{"command":"make deploy"}}'`)
	d := managedFirst(t, "opa: "+opa.URL+"/v1/data/guard\n    - command: "+strconv.Quote(rw)+"\n")
	o := dispatch(t, d, "pre_tool_call", terminal("make build"))
	if o.Decision != protocol.DecisionBlock || !strings.Contains(o.Message, "managed: no deploy (judged on the call as rewritten by "+rw+")") {
		t.Fatalf("a managed OPA guard let the rewrite into make deploy through: %s %q (%d posts)", o.Decision, o.Message, posts.Load())
	}
}

// A managed guard in shadow mode is run again on a rewritten call like
// any managed guard, and what it would have done there is recorded (as a
// shadow rule's is): its refusal of the rewrite blocks nothing but is not
// lost for "no objection".
func TestManagedShadowJudgesTheRewrite(t *testing.T) {
	dir := t.TempDir()
	guard := script(t, dir, "guard.sh", `case $(cat) in *'make deploy'*) echo '{"decision":"block","message":"managed: no deploy"}' ;; *) echo '{}' ;; esac`)
	rw := script(t, dir, "rewrite.sh", `echo '{"action":"modify","args":{"command":"make deploy"}}'`)
	d := managedFirst(t, "command: "+strconv.Quote(guard)+"\n      mode: shadow\n    - command: "+strconv.Quote(rw)+"\n")
	o := dispatch(t, d, "pre_tool_call", terminal("make build"))
	g := o.Hooks[0]
	if o.Decision != protocol.DecisionNone || o.Args["command"] != "make deploy" {
		t.Fatalf("a shadow guard decided: %s %q %v", o.Decision, o.Message, o.Args)
	}
	if !strings.Contains(g.Would, "managed: no deploy (judged on the call as rewritten by "+rw+")") || g.Contribution != nil || !g.Rejudged {
		t.Fatalf("the shadow guard's report on the rewrite: would %q, contribution %+v, rejudged %v, note %q", g.Would, g.Contribution, g.Rejudged, g.Note)
	}
}

// A managed guard that rewrites the call itself (adds a flag) still
// judges what another hook makes of it afterwards: exempting every
// rewriting guard let a user's later rewrite into what the guard refuses
// run unjudged.
func TestManagedRewriterJudgesALaterRewrite(t *testing.T) {
	dir := t.TempDir()
	guard := script(t, dir, "guard.sh", `case $(cat) in
*'make deploy'*) echo '{"decision":"block","message":"managed: no deploy"}' ;;
*'"make build"'*) echo '{"action":"modify","args":{"command":"make build --safe"}}' ;;
*) echo '{}' ;;
esac`)
	rw := script(t, dir, "rewrite.sh", `echo '{"action":"modify","args":{"command":"make deploy"}}'`)
	d := managedFirst(t, "command: "+strconv.Quote(guard)+"\n    - command: "+strconv.Quote(rw)+"\n")
	o := dispatch(t, d, "pre_tool_call", terminal("make build"))
	if o.Decision != protocol.DecisionBlock || !strings.Contains(o.Message, "managed: no deploy (judged on the call as rewritten by ") {
		t.Fatalf("a user's rewrite after the managed guard's own ran unjudged: %s %q %v", o.Decision, o.Message, o.Args)
	}
}

// A "rewrite" that gives the call back as sent (a hook that always echoes
// its input as updatedInput) rewrites nothing: the managed guard, which
// already judged that call, is not run a second time for it.
func TestManagedGuardNotRerunOnAnEcho(t *testing.T) {
	dir := t.TempDir()
	count := filepath.Join(dir, "runs")
	guard := script(t, dir, "guard.sh", `cat >/dev/null; echo run >> `+strconv.Quote(count)+`; echo '{}'`)
	echo := script(t, dir, "echo.sh", `echo '{"action":"modify","args":{"command":"make build"}}'`)
	d := managedFirst(t, "command: "+strconv.Quote(guard)+"\n    - command: "+strconv.Quote(echo)+"\n")
	o := dispatch(t, d, "pre_tool_call", terminal("make build"))
	runs, err := os.ReadFile(count)
	if err != nil {
		t.Fatal(err)
	}
	if o.Decision != protocol.DecisionNone || string(runs) != "run\n" {
		t.Fatalf("the managed guard ran %q for a call given back unchanged (%s)", runs, o.Decision)
	}
}

// A second run that failed without failing closed is not "no objection".
func TestManagedAgainFailedSecondRun(t *testing.T) {
	rep := protocol.HookReport{Command: "./g.sh", ElapsedMS: 1}
	managedAgain(&rep, &protocol.HookReport{TimedOut: true}, "./rw.sh", false)
	if rep.Note != "run again on the call as rewritten by ./rw.sh: timed out, not failing closed" {
		t.Errorf("note %q", rep.Note)
	}
}

// managedFirst is a dispatcher of pre_tool_call entries (YAML list items,
// "- " before the first), the first of them the managed layer's.
func managedFirst(t *testing.T, entries string) *Dispatcher {
	t.Helper()
	cfg, err := hookconfig.ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - "+entries), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Entries[0].Scope.Managed = true
	d, err := New(cfg, Options{Gate: AllowAll})
	if err != nil {
		t.Fatal(err)
	}
	return d
}
