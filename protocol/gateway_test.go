package protocol

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// Issue 27: Hermes' gateway hook events and pre_gateway_dispatch's
// decisions. The gateway hook contract (HOOK.yaml events, command:*
// matching every command:NAME) and pre_gateway_dispatch's plugin results
// (skip, rewrite, allow; the first recognised one wins; an error falls
// through to normal dispatch) are Hermes' hooks documentation.

func TestGatewayEventsLookup(t *testing.T) {
	for _, tc := range []struct {
		name string
		want string // "" = unknown
	}{
		{"gateway:startup", "gateway:startup"},
		{"session:start", "session:start"},
		{"session:end", "session:end"},
		{"session:reset", "session:reset"},
		{"agent:start", "agent:start"},
		{"agent:step", "agent:step"},
		{"agent:end", "agent:end"},
		{"command:*", "command:*"},
		{"command:model", "command:*"},
		{"command:reset", "command:*"},
		{"command:new_chat-2.x", "command:*"},
		{"command:", ""},
		{"command:a b", ""},
		{"command:a:b", ""},
		{"command:é", ""},
		{"command:" + string(make([]byte, 65)), ""},
		{"Command:model", ""},
		{"agent:foo", ""}, // agent:* is no family
		{"agent:*", ""},
		{"session:*", ""},
		{":model", ""},
		{"*", ""},
		{"pre_tool_call:x", ""},
	} {
		e, ok := Lookup(tc.name)
		switch {
		case tc.want == "" && ok:
			t.Errorf("Lookup(%q) = %s; want unknown", tc.name, e.Name)
		case tc.want != "" && (!ok || e.Name != tc.want):
			t.Errorf("Lookup(%q) = %v, %v; want %s", tc.name, e, ok, tc.want)
		}
	}
	for _, e := range Events() {
		if !e.Gateway {
			continue
		}
		// Observers outside Hermes' VALID_HOOKS: nothing a reply can change,
		// and never a guard.
		if e.Hermes || e.ClaudeOnly || e.Caps != 0 || e.gates || e.FailClosedToo || e.Tool || e.Synthetic == nil {
			t.Errorf("%s: %+v; want a gateway observer with synthetic fields", e.Name, e)
		}
		if !contains(ValidEventNames(), e.Name) || contains(HermesEventNames(), e.Name) {
			t.Errorf("%s: valid in config, but not one of Hermes' VALID_HOOKS", e.Name)
		}
	}
}

func TestGatewayFamilyAdmits(t *testing.T) {
	cmd := ev("command:*")
	for _, tc := range []struct {
		declared string
		fields   map[string]any
		want     bool
	}{
		{"command:*", map[string]any{"command": "model"}, true},
		{"command:*", nil, true},
		{"command:model", map[string]any{"command": "model"}, true},
		{"command:model", map[string]any{"command": "/model"}, true},
		{"command:model", map[string]any{"command": "reset"}, false},
		{"command:model", map[string]any{"command": "Model"}, false},
		{"command:model", map[string]any{}, false},
		{"command:model", map[string]any{"command": 3}, false},
		{"command:model", nil, false},
	} {
		if got := cmd.Admits(tc.declared, tc.fields); got != tc.want {
			t.Errorf("Admits(%q, %v) = %v, want %v", tc.declared, tc.fields, got, tc.want)
		}
	}
	// Any other event admits every entry declared under any of its names.
	if !ev("pre_tool_call").Admits("intercept_tool_call", nil) || !ev("agent:start").Admits("agent:start", nil) {
		t.Error("a non-family event refused an entry")
	}
	var none *Event
	if !none.Admits("x", nil) {
		t.Error("nil event refused")
	}
}

func TestGatewayFamilyMemberFields(t *testing.T) {
	cmd := ev("command:*")
	host := map[string]any{"platform": "telegram"}
	got := cmd.MemberFields("command:model", host)
	if want := map[string]any{"platform": "telegram", "command": "model"}; !reflect.DeepEqual(got, want) {
		t.Errorf("MemberFields = %v, want %v", got, want)
	}
	if _, changed := host["command"]; changed {
		t.Error("MemberFields changed the host's map")
	}
	sent := map[string]any{"command": "reset"}
	if got := cmd.MemberFields("command:model", sent); !reflect.DeepEqual(got, sent) {
		t.Errorf("the host's own command was replaced: %v", got)
	}
	if got := cmd.MemberFields("command:*", host); !reflect.DeepEqual(got, host) {
		t.Errorf("the family's own name set a command: %v", got)
	}
	if got := cmd.MemberFields("command:model", nil); !reflect.DeepEqual(got, map[string]any{"command": "model"}) {
		t.Errorf("nil fields: %v", got)
	}
	if got := ev("agent:start").MemberFields("agent:start", host); !reflect.DeepEqual(got, host) {
		t.Errorf("a non-family event changed fields: %v", got)
	}
}

func TestGatewaySuggestions(t *testing.T) {
	for in, want := range map[string]string{
		"session_start": "on_session_start", // not session:start
		"session_end":   "on_session_end",
		"sesion:start":  "session:start",
		"agent:stat":    "agent:start",
		"comand:*":      "command:*",
		"gateway_start": "pre_gateway_dispatch", // no ':': not gateway:startup
		"gateway:start": "gateway:startup",
	} {
		if got := SuggestEvent(in); got != want {
			t.Errorf("SuggestEvent(%q) = %q, want %q", in, got, want)
		}
	}
}

// pre_gateway_dispatch's reply rule (Hermes dialect), and its Hermes wire.
var gatewayReplyCases = []replyCase{
	{name: "skip_with_reason", event: "pre_gateway_dispatch", stdout: `{"action":"skip","reason":"not the owner"}`,
		want: block("not the owner"), wantWire: `{"action":"skip","reason":"not the owner"}`},
	{name: "skip_without_reason", event: "pre_gateway_dispatch", stdout: `{"action":"skip"}`,
		want: block(DefaultSkipReason), wantWire: `{"action":"skip","reason":"skipped by a shell hook"}`},
	{name: "skip_blank_reason", event: "pre_gateway_dispatch", stdout: `{"action":"skip","reason":"  "}`,
		want: block(DefaultSkipReason)},
	{name: "skip_non_string_reason", event: "pre_gateway_dispatch", stdout: `{"action":"skip","reason":7}`,
		want: block(DefaultSkipReason)},
	{name: "rewrite", event: "pre_gateway_dispatch", stdout: `{"action":"rewrite","text":"/help"}`,
		want: &Contribution{Result: ptr("/help")}, wantWire: `{"action":"rewrite","text":"/help"}`},
	{name: "rewrite_empty_text_is_no_action", event: "pre_gateway_dispatch", stdout: `{"action":"rewrite","text":""}`,
		want: nil, wantWire: `{}`},
	{name: "rewrite_non_string_text_is_no_action", event: "pre_gateway_dispatch", stdout: `{"action":"rewrite","text":["a"]}`,
		want: nil},
	{name: "rewrite_value_is_not_text", event: "pre_gateway_dispatch", stdout: `{"action":"rewrite","value":"x"}`,
		want: nil},
	{name: "allow", event: "pre_gateway_dispatch", stdout: `{"action":"allow"}`,
		want: &Contribution{Decision: DecisionAllow}, wantWire: `{"action":"allow"}`},
	{name: "verbs_are_case_sensitive", event: "pre_gateway_dispatch", stdout: `{"action":"SKIP"}`, want: nil},
	{name: "tool_block_is_no_action", event: "pre_gateway_dispatch", stdout: `{"action":"block","message":"m"}`, want: nil},
	{name: "decision_block_is_no_action", event: "pre_gateway_dispatch", stdout: `{"decision":"block","reason":"m"}`, want: nil},
	{name: "context_is_no_action", event: "pre_gateway_dispatch", stdout: `{"context":"c"}`, want: nil, wantWire: `{}`},
	{name: "exit_2_is_a_failure_not_a_skip", event: "pre_gateway_dispatch", exit: 2, stderr: "no", want: nil},
	{name: "crash_falls_through", event: "pre_gateway_dispatch", exit: 1, stderr: "boom", want: nil},
	{name: "crash_with_a_skip_on_stdout_skips", event: "pre_gateway_dispatch", exit: 1, stdout: `{"action":"skip","reason":"r"}`,
		want: block("r")},
	{name: "fail_closed_crash_skips", event: "pre_gateway_dispatch", failClosed: true, exit: 1, stderr: "boom",
		want:     block("hook " + testCommand + " failed closed: exited with status 1 and printed nothing: boom"),
		wantWire: `{"action":"skip","reason":"hook ` + testCommand + ` failed closed: exited with status 1 and printed nothing: boom"}`},
	{name: "fail_closed_timeout_skips", event: "pre_gateway_dispatch", failClosed: true, timedOut: true, timeout: 5,
		want: block("hook " + testCommand + " failed closed: timed out after 5s")},
	{name: "fail_closed_garbage_skips", event: "pre_gateway_dispatch", failClosed: true, stdout: "oops",
		want: block("hook " + testCommand + " failed closed: unparseable stdout (expected a JSON object)")},
	{name: "fail_closed_no_opinion_passes", event: "pre_gateway_dispatch", failClosed: true, stdout: "{}", want: nil},
	{name: "fail_closed_allow_allows", event: "pre_gateway_dispatch", failClosed: true, stdout: `{"action":"allow"}`,
		want: &Contribution{Decision: DecisionAllow}},
	// fail_closed stays a guard's word on the gateway observers.
	{name: "gateway_observer_fail_closed_crash_nothing", event: "agent:start", failClosed: true, exit: 1, want: nil},
	{name: "gateway_observer_skip_ignored", event: "command:*", stdout: `{"action":"skip"}`, want: nil, wantWire: `{}`},
}

func TestGatewayDispatchReplies(t *testing.T) {
	for _, tc := range gatewayReplyCases {
		t.Run(tc.name, func(t *testing.T) { runReplyCase(t, Hermes, tc) })
	}
}

// Rule 12: the first contribution that decides is the outcome, in config
// order, whatever it decides (Hermes' first recognised plugin action).
func TestGatewayDispatchFirstDecides(t *testing.T) {
	skip := func(r string) *Contribution { return block(r) }
	rewrite := func(s string) *Contribution { return &Contribution{Result: ptr(s)} }
	allow := &Contribution{Decision: DecisionAllow}
	for _, tc := range []struct {
		name  string
		in    []*Contribution
		wire  string
		shape Decision
	}{
		{"nothing", []*Contribution{nil, nil}, `{}`, DecisionNone},
		{"skip", []*Contribution{nil, skip("a")}, `{"action":"skip","reason":"a"}`, DecisionBlock},
		{"allow_then_skip", []*Contribution{allow, skip("a")}, `{"action":"allow"}`, DecisionAllow},
		{"skip_then_allow", []*Contribution{skip("a"), allow}, `{"action":"skip","reason":"a"}`, DecisionBlock},
		{"rewrite_then_skip", []*Contribution{rewrite("x"), skip("a")}, `{"action":"rewrite","text":"x"}`, DecisionNone},
		{"skip_then_rewrite", []*Contribution{skip("a"), rewrite("x")}, `{"action":"skip","reason":"a"}`, DecisionBlock},
		{"rewrite_then_rewrite", []*Contribution{rewrite("x"), rewrite("y")}, `{"action":"rewrite","text":"x"}`, DecisionNone},
		{"skip_then_skip", []*Contribution{skip("a"), skip("b")}, `{"action":"skip","reason":"a"}`, DecisionBlock},
		{"no_action_then_rewrite", []*Contribution{{Context: "c"}, rewrite("y")}, `{"action":"rewrite","text":"y"}`, DecisionNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var reports []HookReport
			for _, c := range tc.in {
				reports = append(reports, HookReport{Contribution: c})
			}
			o := Fold(ev("pre_gateway_dispatch"), nil, reports)
			if o.Decision != tc.shape {
				t.Errorf("decision %s, want %s", o.Decision, tc.shape)
			}
			if got := string(pyjson.Encode(o.HermesWire(), pyjson.Compact)); got != tc.wire {
				t.Errorf("wire %s, want %s", got, tc.wire)
			}
		})
	}
	// Elsewhere the fold keeps its ranks: a later block beats an allow.
	o := Fold(ev("pre_tool_call"), nil, []HookReport{{Contribution: allow}, {Contribution: skip("a")}})
	if o.Decision != DecisionBlock {
		t.Errorf("pre_tool_call fold: %s", o.Decision)
	}
}

// A Claude hook's continue:false on pre_gateway_dispatch does not let the
// message through: it is skipped with the stop reason.
func TestGatewayDispatchStopSkips(t *testing.T) {
	o := Outcome{Event: "pre_gateway_dispatch", Stop: true, StopReason: "quiet hours"}
	if got := string(pyjson.Encode(o.HermesWire(), pyjson.Compact)); got != `{"action":"skip","reason":"quiet hours"}` {
		t.Errorf("wire %s", got)
	}
	o.StopReason = ""
	if got := string(pyjson.Encode(o.HermesWire(), pyjson.Compact)); got != `{"action":"skip","reason":"skipped by a shell hook"}` {
		t.Errorf("wire %s", got)
	}
}

func FuzzLookupFamily(f *testing.F) {
	for _, s := range []string{"command:model", "command:*", "command:", "agent:start", "x:y", ":", "command:a:b", "pre_tool_call"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		e, ok := Lookup(name)
		if !ok {
			return
		}
		if byName[name] == e {
			return
		}
		// Resolved as a family member: the row is a family, the name is
		// prefix:NAME with a valid NAME, and MemberFields gives NAME back.
		family, member, split := familyOf(name)
		if e.FamilyField == "" || !split || family != e.Name || !validMember(member) {
			t.Fatalf("Lookup(%q) = %s", name, e.Name)
		}
		fields := e.MemberFields(name, nil)
		if !e.Admits(name, fields) || fields[e.FamilyField] != member {
			t.Fatalf("%q: member fields %v not admitted", name, fields)
		}
	})
}

// A gateway event's context reaches a Hermes-dialect script whole, under
// extra: command:*'s "args" are the slash command's, not a tool's.
func TestGatewayPayloadKeepsArgs(t *testing.T) {
	e := ev("command:*")
	fields := e.MemberFields("command:model", map[string]any{"platform": "telegram", "user_id": "u1", "args": "gpt-5",
		"session_id": "s1", "tool_name": "x"})
	got := string(pyjson.Encode(HermesPayload(e, fields, PayloadEnv{Cwd: "/w"}), pyjson.Python))
	want := `{"hook_event_name": "command:*", "tool_name": null, "tool_input": null, "session_id": "s1", "cwd": "/w", ` +
		`"extra": {"args": "gpt-5", "command": "model", "platform": "telegram", "tool_name": "x", "user_id": "u1"}}`
	if got != want {
		t.Errorf("payload\n got %s\nwant %s", got, want)
	}
	// Hermes' own events keep Hermes' rule: args is the tool's.
	got = string(pyjson.Encode(HermesPayload(ev("pre_command"), map[string]any{"args": "x"}, PayloadEnv{Cwd: "/w"}), pyjson.Python))
	if want := `{"hook_event_name": "pre_command", "tool_name": null, "tool_input": null, "session_id": "", "cwd": "/w", "extra": {}}`; got != want {
		t.Errorf("pre_command payload\n got %s\nwant %s", got, want)
	}
}

// Issue 31 item 5: a pre_gateway_dispatch reply in the tool-call form
// drops no message (Hermes reads skip, rewrite and allow there). It stays
// no action, as in Hermes, but is named: the parse's note, and
// ReplyFormProblem for test and doctor.
func TestGatewayToolFormIsNamed(t *testing.T) {
	gw, _ := Lookup("pre_gateway_dispatch")
	tool, _ := Lookup("pre_tool_call")
	obs, _ := Lookup("agent:start")
	for _, tc := range []struct {
		name   string
		ev     *Event
		d      Dialect
		stdout string
		want   string // a substring of the problem; "" for none
	}{
		{"action_block", gw, Hermes, `{"action": "block", "message": "strangers out"}`, `{"action": "block"} is the tool-call form`},
		{"decision_block", gw, Hermes, `{"decision":"block","reason":"r"}`, `{"decision": "block"} is the tool-call form`},
		{"decision_deny", gw, Hermes, `{"decision":"deny"}`, `{"decision": "deny"} is the tool-call form`},
		{"padded", gw, Hermes, "  {\"action\":\"block\"}\n", `reply {"action": "skip", "reason": "…"} to drop it`},
		{"with_state", gw, Hermes, `{"action":"block","state":{"n":1}}`, `tool-call form`},
		{"skip_is_right", gw, Hermes, `{"action":"skip","reason":"r"}`, ""},
		{"a_skip_wins_over_a_decision", gw, Hermes, `{"action":"skip","decision":"block"}`, ""},
		{"allow", gw, Hermes, `{"action":"allow"}`, ""},
		{"empty", gw, Hermes, `{}`, ""},
		{"context", gw, Hermes, `{"context":"c"}`, ""},
		{"garbage", gw, Hermes, `oops`, ""},
		{"array", gw, Hermes, `["block"]`, ""},
		{"verbs_are_case_sensitive", gw, Hermes, `{"action":"BLOCK"}`, ""},
		{"on_a_tool_call_it_is_the_form", tool, Hermes, `{"action":"block"}`, ""},
		{"on_an_observer_nothing_is_said", obs, Hermes, `{"action":"block"}`, ""},
		{"claude_dialect_not_judged", gw, Claude, `{"decision":"block"}`, ""},
		{"nil_event", nil, Hermes, `{"action":"block"}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := ReplyFormProblem(tc.ev, tc.d, []byte(tc.stdout), 0)
			if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
				t.Fatalf("ReplyFormProblem = %q, want it to hold %q", got, tc.want)
			}
			if tc.ev == nil || tc.d != Hermes {
				return
			}
			c, note := ParseReply(Reply{Event: tc.ev, Dialect: Hermes, Command: testCommand, Stdout: []byte(tc.stdout)})
			if tc.want != "" && (!strings.Contains(note, tc.want) || c != nil && c.Decision != "") {
				t.Fatalf("ParseReply = %+v, note %q; want no decision and a note holding %q", c, note, tc.want)
			}
			if tc.want == "" && strings.Contains(note, "tool-call form") {
				t.Fatalf("ParseReply note %q names a tool-call form", note)
			}
		})
	}
}

func FuzzReplyFormProblem(f *testing.F) {
	for _, s := range []string{`{"action":"block"}`, `{"decision":"deny"}`, `{"action":"skip"}`, `oops`, ``} {
		f.Add([]byte(s))
	}
	gw, _ := Lookup("pre_gateway_dispatch")
	f.Fuzz(func(t *testing.T, stdout []byte) {
		p := ReplyFormProblem(gw, Hermes, stdout, 0)
		c, note := ParseReply(Reply{Event: gw, Dialect: Hermes, Command: testCommand, Stdout: stdout})
		if p != "" && (c != nil && c.Decision != "" || !strings.Contains(note, p)) {
			t.Fatalf("problem %q, but the parse decided %+v with note %q", p, c, note)
		}
	})
}
