package dispatcher

import (
	"io"
	"net/http"
	"net/http/httptest"
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
		if got := managedRejudges(tc.e, tc.rep); got != tc.want {
			t.Errorf("%s: managedRejudges = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A refusal on the second run replaces the first decision and says which
// call it refused; the first run's context stands. No refusal: the first
// report stands, with a note.
func TestManagedAgain(t *testing.T) {
	first := protocol.HookReport{Command: "./g.sh", ElapsedMS: 1, Contribution: &protocol.Contribution{Context: "policy"}}
	next := protocol.HookReport{Command: "./g.sh", ElapsedMS: 2, Contribution: &protocol.Contribution{Decision: protocol.DecisionBlock, Message: "no", Args: map[string]any{"a": 1}}}
	rep := first
	managedAgain(&rep, &next, "./rw.sh")
	c := rep.Contribution
	if c == nil || c.Decision != protocol.DecisionBlock || c.Message != "no (judged on the call as rewritten by ./rw.sh)" || c.Context != "policy" || c.Args != nil || !rep.Rejudged || rep.ElapsedMS != 3 {
		t.Errorf("after a refusal: %+v %+v", rep, c)
	}
	rep = first
	quiet := protocol.HookReport{ElapsedMS: 2, Contribution: &protocol.Contribution{Args: map[string]any{"a": 1}}}
	managedAgain(&rep, &quiet, "./rw.sh")
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
	cfg, err := hookconfig.ParseConfig([]byte("hooks:\n  pre_tool_call:\n    - opa: "+opa.URL+"/v1/data/guard\n    - command: "+strconv.Quote(rw)+"\n"), "test.yaml")
	if err != nil {
		t.Fatal(err)
	}
	cfg.Entries[0].Scope.Managed = true
	d, err := New(cfg, Options{Gate: AllowAll})
	if err != nil {
		t.Fatal(err)
	}
	o := dispatch(t, d, "pre_tool_call", terminal("make build"))
	if o.Decision != protocol.DecisionBlock || !strings.Contains(o.Message, "managed: no deploy (judged on the call as rewritten by "+rw+")") {
		t.Fatalf("a managed OPA guard let the rewrite into make deploy through: %s %q (%d posts)", o.Decision, o.Message, posts.Load())
	}
}
