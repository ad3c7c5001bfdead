package dispatcher

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/rule"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A rule past its time bound (or never started, its call's rules out of
// time) is reported as timed out by the report's own field, as a command
// killed at its timeout is: serve's stats and log line, /metrics, the
// journal, log and doctor count a timeout by that field, and missed the
// rule's or read it from its error's words. Its error keeps saying how it
// stopped, and a fail_closed rule refuses with the same words as before.
// A rule found disabled while an earlier firing's evaluation still runs
// past its bound did not run past anything on this call: an error, not a
// timeout (the timeout was counted on the firing that passed it).
func TestRuleTimeoutIsATimeout(t *testing.T) {
	for _, tc := range []struct {
		name     string
		err      error
		timedOut bool
		why      string
	}{
		{"past its bound", rule.ErrTimeout, true, "rule evaluation stopped: " + rule.ErrTimeout.Error()},
		{"not started", rule.ErrNotStarted, true, "rule evaluation stopped: " + rule.ErrNotStarted.Error()},
		{"quarantined", rule.ErrQuarantined, false, "rule evaluation stopped: " + rule.ErrQuarantined.Error()},
		{"an evaluation error", errors.New("1:6: no key"), false, "rule evaluation failed: 1:6: no key"},
	} {
		for _, fc := range []bool{false, true} {
			e := ruleEntry(t, `tool == "terminal"`, "block", consent.Scope{}, fc)
			d, err := New(&hookconfig.Config{Entries: []*hookconfig.Entry{e}}, Options{Gate: AllowAll, Cwd: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			k := &ruleKind{spec: e.Rule()}
			if _, err := k.compiled(d, e); err != nil {
				t.Fatal(err)
			}
			r := k.answer(e.Event, e, false, tc.err, time.Millisecond)
			rep := baseReport(e)
			d.finish(context.Background(), e.Event, e, &r, terminal("ls"), &rep, nil)
			if rep.TimedOut != tc.timedOut || rep.Error != tc.why || rep.Ran {
				t.Errorf("%s, fail_closed=%v: timed out %v, error %q, ran %v; want %v, %q, false", tc.name, fc, rep.TimedOut, rep.Error, rep.Ran, tc.timedOut, tc.why)
			}
			c := rep.Contribution
			switch {
			case !fc && c != nil:
				t.Errorf("%s: a rule that does not fail closed contributed %+v", tc.name, c)
			case fc && (c == nil || c.Decision != protocol.DecisionBlock || !strings.HasSuffix(c.Message, "failed closed: "+tc.why)):
				t.Errorf("%s: fail_closed refusal %+v, want one ending %q", tc.name, c, "failed closed: "+tc.why)
			}
			if f := rep.Failure(); !fc && f != tc.why {
				t.Errorf("%s: failure shown to the user %q, want %q", tc.name, f, tc.why)
			}
		}
	}
}
