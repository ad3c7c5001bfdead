package export

import (
	"strings"
	"testing"
	"time"
)

// An ask the agent got as a refusal (the journal's delivered: block) is
// exported as the refusal it was, beside the decision: its OTLP record
// carries hermes_hooks.delivered and its reason, its summary says so, its
// severity is a refusal's and syslog's structured data has delivered=.
// Exported as a bare ask, a dashboard counted as asked a call the agent
// refused.
func TestExportedAskSaysWhatTheAgentGot(t *testing.T) {
	line := `{"seq":1,"event":"pre_tool_call","tool":"Bash","agent":"codex","decision":"ask","delivered":"block",` +
		`"delivered_why":"Codex cannot ask from a PreToolUse hook; this call is refused","message":"force push?","hooks":[]}`
	it := newItem([]byte(line))
	if !it.ok {
		t.Fatal("unreadable line")
	}
	attrs := map[string]string{}
	for _, a := range it.rec.attributes() {
		attrs[a.key] = a.s
	}
	if attrs["hermes_hooks.decision"] != "ask" || attrs["hermes_hooks.delivered"] != "block" ||
		!strings.Contains(attrs["hermes_hooks.delivered_why"], "Codex cannot ask") {
		t.Errorf("attributes %v: want decision ask, delivered block and why", attrs)
	}
	if got, want := it.rec.summary(), "ask (delivered as block) pre_tool_call Bash: force push?"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	if !it.rec.blocked() {
		t.Error("not a refusal's severity")
	}
	if got := string(formatRFC5424(&it, "box", "1", time.Now())); !strings.Contains(got, ` decision="ask" delivered="block" `) {
		t.Errorf("structured data of %q lacks delivered", got)
	}
	plain := newItem([]byte(`{"seq":1,"event":"pre_tool_call","decision":"ask","hooks":[]}`))
	if plain.rec.blocked() || strings.Contains(plain.rec.summary(), "delivered") {
		t.Errorf("an ask the agent asked reads as %q (blocked %v)", plain.rec.summary(), plain.rec.blocked())
	}
}
