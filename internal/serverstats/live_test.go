package serverstats

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// The decision label takes one of a few values whatever an outcome
// carries: a decision the fold would never pick (a hook's own word) still
// cannot grow the scrape by a series, nor break its syntax.
func TestDecisionLabel(t *testing.T) {
	for _, c := range []struct {
		in   protocol.Decision
		want string
	}{
		{protocol.DecisionNone, "none"}, {"", "none"}, {protocol.DecisionDefer, "none"},
		{protocol.DecisionAllow, "allow"}, {protocol.DecisionAsk, "ask"}, {protocol.DecisionBlock, "block"},
		{"deny", "other"}, {`x"} 1` + "\nhermes_hooks_fake 9", "other"},
	} {
		if got := decisionLabel(c.in); got != c.want {
			t.Errorf("decisionLabel(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// The families counted per dispatch, written sorted by their labels.
func TestWriteLive(t *testing.T) {
	l := NewLive(time.Now())
	for _, c := range []struct {
		event      string
		decision   protocol.Decision
		unapproved int
	}{
		{"pre_tool_call", protocol.DecisionBlock, 2}, {"pre_tool_call", protocol.DecisionBlock, 0},
		{"pre_tool_call", "", 0}, {"pre_llm_call", protocol.DecisionNone, 1}, {"pre_tool_call", "evil", 0},
	} {
		l.CountDispatch(c.event, &protocol.Outcome{Decision: c.decision, Unapproved: c.unapproved})
	}
	var b bytes.Buffer
	WriteMetrics(&b, &Scrape{Live: l, Hooks: NewTable(&hookconfig.Config{}, nil)})
	got := b.String()
	for _, want := range []string{
		`hermes_hooks_dispatches_total{event="pre_llm_call"} 1` + "\n" + `hermes_hooks_dispatches_total{event="pre_tool_call"} 4` + "\n",
		`hermes_hooks_decisions_total{decision="block",event="pre_tool_call"} 2` + "\n" +
			`hermes_hooks_decisions_total{decision="none",event="pre_llm_call"} 1` + "\n" +
			`hermes_hooks_decisions_total{decision="none",event="pre_tool_call"} 1` + "\n" +
			`hermes_hooks_decisions_total{decision="other",event="pre_tool_call"} 1` + "\n",
		`hermes_hooks_unapproved_skipped_total{event="pre_llm_call"} 1` + "\n" + `hermes_hooks_unapproved_skipped_total{event="pre_tool_call"} 2` + "\n",
		"# TYPE hermes_hooks_decisions_total counter\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("scrape lacks\n%s\nin\n%s", want, got)
		}
	}
}
