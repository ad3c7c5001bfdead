package agents

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

const testNotice = "2 hooks from this repository are not approved: review them, then run `hermes-hooks approve --project` yourself"

// TestEveryAgentDeclaresANoticeChannel: every agent and host of the
// registry says where it shows the person a line of hermes-hooks' own, so
// a new one cannot leave the person uninformed by omission.
func TestEveryAgentDeclaresANoticeChannel(t *testing.T) {
	for _, a := range All() {
		if a.notice == noticeUndeclared {
			t.Errorf("%s: no notice channel (set Agent.notice)", a.Name)
		}
		for _, h := range a.hosts {
			if h.notice == noticeUndeclared {
				t.Errorf("%s (host of %s): no notice channel (set Host.notice)", h.Name, a.Name)
			}
		}
	}
}

// noticeCalls is every caller (agent or host) × event of the registry.
func noticeCalls(t *testing.T) []*Call {
	var out []*Call
	for _, a := range All() {
		for _, ae := range a.AgentEvents() {
			c, err := a.Decode([]byte(`{}`), ae)
			if err != nil || c.Event == nil {
				t.Fatalf("%s %s: Decode = %+v, %v", a.Name, ae, c, err)
			}
			out = append(out, c)
			for _, h := range a.hosts {
				hc := *c
				hc.Host = h
				out = append(out, &hc)
			}
		}
	}
	return out
}

func callerName(c *Call) string {
	if c.Host != nil {
		return c.Host.Name
	}
	return c.Agent.Name
}

// withoutSystemMessage is a JSON reply without its systemMessage, for
// comparing what else it says.
func withoutSystemMessage(stdout []byte) any {
	v, err := pyjson.Decode(stdout)
	if err != nil {
		return string(stdout)
	}
	if m, ok := v.(map[string]any); ok {
		delete(m, "systemMessage")
	}
	return v
}

// TestNoticeKeepsTheDecision (issue 32, item 2): for every agent and host
// × every event × decisions, EncodeNotice shows the notice where that
// caller shows the user a line (its systemMessage, Windsurf's stdout), and
// otherwise leaves the reply as Encode makes it: same exit code, same
// decision, same text for the model. A caller without a channel never
// claims to show it; one with a channel shows it on every gating event
// that is let through.
func TestNoticeKeepsTheDecision(t *testing.T) {
	for _, c := range noticeCalls(t) {
		name := callerName(c) + "/" + c.AgentEvent
		outcomes := []protocol.Outcome{
			{Event: c.Event.Name, Decision: protocol.DecisionNone},
			{Event: c.Event.Name, Decision: protocol.DecisionNone, SystemMessage: "from a hook", Context: "ctx"},
		}
		if c.Event.Gating() {
			outcomes = append(outcomes,
				protocol.Outcome{Event: c.Event.Name, Decision: protocol.DecisionBlock, Message: "no"},
				protocol.Outcome{Event: c.Event.Name, Decision: protocol.DecisionAllow})
		}
		for i := range outcomes {
			o := &outcomes[i]
			plain := c.Agent.Encode(c, o)
			got, shown := c.Agent.EncodeNotice(c, o, testNotice)
			ch := c.Agent.noticeOf(c)
			switch {
			case !shown:
				if !reflect.DeepEqual(got, plain) {
					t.Errorf("%s %s: not shown, but the reply changed: %+v, want %+v", name, o.Decision, got, plain)
				}
				if ch == noticeNone {
					break
				}
				if c.Event.Gating() && o.Decision == protocol.DecisionNone && o.SystemMessage == "" {
					t.Errorf("%s: a gating event let through has no place for the notice: %+v", name, got)
				}
			case ch == noticeNone:
				t.Errorf("%s: shown by a caller without a channel: %+v", name, got)
			case got.Exit != plain.Exit:
				t.Errorf("%s %s: exit %d, without the notice %d", name, o.Decision, got.Exit, plain.Exit)
			case ch == noticeStdout:
				if !bytes.Equal(got.Stdout, append(append([]byte(nil), plain.Stdout...), testNotice+"\n"...)) {
					t.Errorf("%s: stdout %q", name, got.Stdout)
				}
			default:
				v, err := pyjson.Decode(got.Stdout)
				m, _ := v.(map[string]any)
				msg, _ := m["systemMessage"].(string)
				if err != nil || !strings.HasSuffix(msg, testNotice) {
					t.Errorf("%s %s: systemMessage %q in %s", name, o.Decision, msg, got.Stdout)
				}
				if o.SystemMessage != "" && !strings.HasPrefix(msg, o.SystemMessage+"\n") {
					t.Errorf("%s: the hooks' systemMessage is lost: %q", name, msg)
				}
				if o.SystemMessage == "" && len(plain.Stdout) > 0 && !reflect.DeepEqual(withoutSystemMessage(got.Stdout), withoutSystemMessage(plain.Stdout)) {
					t.Errorf("%s %s: the reply says more than the notice: %s, without it %s", name, o.Decision, got.Stdout, plain.Stdout)
				}
			}
		}
	}
}

// A refusal by exit code (the model reads it) never carries the notice,
// and a quiet reply that shows a failed hook by exit 1 keeps going at exit
// 0 with both lines in its systemMessage.
func TestNoticeBesideRefusalsAndFailures(t *testing.T) {
	one := 1
	failed := []protocol.HookReport{{Command: "./exit1.sh", Ran: true, ExitCode: &one, Note: "Failed with non-blocking status code 1: boom"}}
	for _, c := range noticeCalls(t) {
		name := callerName(c) + "/" + c.AgentEvent
		if r := c.Agent.DenyAnyCaller(c, "no"); r.Exit == 2 {
			o := &protocol.Outcome{Event: c.Event.Name, Decision: protocol.DecisionBlock, Message: "no"}
			if plain := c.Agent.Encode(c, o); plain.Exit == 2 {
				if got, shown := c.Agent.EncodeNotice(c, o, testNotice); shown || !reflect.DeepEqual(got, plain) {
					t.Errorf("%s: an exit-2 refusal changed: %+v", name, got)
				}
			}
		}
		o := &protocol.Outcome{Event: c.Event.Name, Decision: protocol.DecisionNone, Hooks: failed}
		plain := c.Agent.Encode(c, o)
		got, shown := c.Agent.EncodeNotice(c, o, testNotice)
		if !shown {
			continue
		}
		out := string(got.Stdout) + string(got.Stderr)
		if !strings.Contains(out, "./exit1.sh failed") || !strings.Contains(out, "hermes-hooks approve --project") {
			t.Errorf("%s: the failure or the notice is missing: %q", name, out)
		}
		if got.Exit != plain.Exit && !(plain.Exit == 1 && got.Exit == 0) {
			t.Errorf("%s: exit %d, without the notice %d", name, got.Exit, plain.Exit)
		}
	}
}
