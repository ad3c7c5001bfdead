package agents

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// TestEveryAgentShowsFailures: every agent and host of the registry says
// how it shows a failed hook, so a new one cannot hide them by omission.
func TestEveryAgentShowsFailures(t *testing.T) {
	for _, a := range All() {
		if _, ok := failureShown[a.Name]; !ok {
			t.Errorf("%s: no entry in failureShown", a.Name)
		}
		for _, h := range a.hosts {
			if _, ok := failureShown[h.Name]; !ok {
				t.Errorf("%s (host of %s): no entry in failureShown", h.Name, a.Name)
			}
		}
	}
}

// TestFailedHooksAreShown (issue 31, item 10): for every agent and host ×
// every event it serves, a hook that failed without deciding (exit 1, a
// timeout, invalid JSON) is in the reply where that agent shows a failed
// hook to the user, and the reply's decision is what it was without it:
// a refusal stays a refusal (its reason the guard's), an empty answer lets
// the call run (exit 1 is a non-blocking error everywhere it is used).
func TestFailedHooksAreShown(t *testing.T) {
	one := 1
	failed := []protocol.HookReport{
		{Command: "./exit1.sh", Ran: true, ExitCode: &one, Note: "Failed with non-blocking status code 1: jq: not found"},
		{Command: "./slow.sh", Ran: true, TimedOut: true},
		{Command: "./garbage.sh", Ran: true, ExitCode: new(int), Note: "shell hook stdout was not valid JSON (event=x): {oops"},
		// Neither a skipped hook nor a fail_closed refusal is a failure
		// to show: the first did not run, the second's block speaks.
		{Command: "./unapproved.sh", Skipped: "not allowlisted"},
	}
	for _, a := range All() {
		for _, ae := range a.AgentEvents() {
			c, err := a.Decode([]byte(`{}`), ae)
			if err != nil || c.Event == nil {
				t.Fatalf("%s %s: Decode = %+v, %v", a.Name, ae, c, err)
			}
			calls := []*Call{c}
			for _, h := range a.hosts {
				hc := *c
				hc.Host = h
				calls = append(calls, &hc)
			}
			for _, c := range calls {
				name := a.Name
				if c.Host != nil {
					name = c.Host.Name
				}
				t.Run(name+"/"+ae, func(t *testing.T) {
					o := protocol.Outcome{Event: c.Event.Name, Decision: protocol.DecisionNone, Hooks: failed}
					r := a.Encode(c, &o)
					out := string(r.Stdout) + string(r.Stderr)
					for _, cmd := range []string{"./exit1.sh failed: Failed with non-blocking status code 1: jq: not found", "./slow.sh failed: timed out", "./garbage.sh failed: shell hook stdout was not valid JSON"} {
						if !strings.Contains(out, "hermes-hooks: hook "+cmd) {
							t.Errorf("reply exit %d stdout %q stderr %q does not show %q", r.Exit, r.Stdout, r.Stderr, cmd)
						}
					}
					if strings.Contains(out, "unapproved") {
						t.Errorf("a skipped hook is shown as failed: %q", out)
					}
					if r.Exit == 2 {
						t.Errorf("a failure refuses: exit 2")
					}
					if how := failureShown[name]; how.channel == failExit && r.Exit != 1 {
						t.Errorf("%s shows a failed hook by its exit code: exit %d", name, r.Exit)
					}
					if c.Event.Gating() {
						block := protocol.Outcome{Event: c.Event.Name, Decision: protocol.DecisionBlock, Message: "no", Hooks: failed}
						plain := protocol.Outcome{Event: c.Event.Name, Decision: protocol.DecisionBlock, Message: "no"}
						if got, want := a.Encode(c, &block), a.Encode(c, &plain); got.Exit != want.Exit || !strings.Contains(string(got.Stdout)+string(got.Stderr), "no") {
							t.Errorf("a refusal beside a failure = %+v, without = %+v", got, want)
						}
					}
				})
			}
		}
	}
}
