package protocol

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// The fold rules of doc.go (DESIGN §4.2), one by one, then the Outcome JSON
// contract (key order, schema) and the Hermes wire shapes.

func rep(c *Contribution) HookReport {
	return HookReport{Event: "pre_tool_call", Command: "hook", Dialect: Hermes, Ran: true, ExitCode: ptr(0), Contribution: c}
}

func reps(cs ...*Contribution) []HookReport {
	out := make([]HookReport, len(cs))
	for i, c := range cs {
		out[i] = rep(c)
	}
	return out
}

func allow(msg string) *Contribution { return &Contribution{Decision: DecisionAllow, Message: msg} }
func ask(msg, key string) *Contribution {
	return &Contribution{Decision: DecisionAsk, Message: msg, RuleKey: key}
}
func modify(args map[string]any) *Contribution  { return &Contribution{Args: args} }
func replace(args map[string]any) *Contribution { return &Contribution{Args: args, ReplaceArgs: true} }

var preTool = ev("pre_tool_call")

// Rule 2: block beats ask beats allow beats none, whatever the order.
func TestFoldGatingPrecedence(t *testing.T) {
	a, q, b := allow("ok"), ask("sure?", "k"), block("no")
	for _, order := range [][]*Contribution{{a, q, b}, {a, b, q}, {q, a, b}, {q, b, a}, {b, a, q}, {b, q, a}} {
		o := Fold(preTool, nil, reps(order...))
		if o.Decision != DecisionBlock || o.Message != "no" || o.RuleKey != "" {
			t.Errorf("order %v: %s %q %q, want block \"no\" without rule key", names(order), o.Decision, o.Message, o.RuleKey)
		}
	}
	for _, order := range [][]*Contribution{{a, q}, {q, a}, {nil, q, nil, a}} {
		o := Fold(preTool, nil, reps(order...))
		if o.Decision != DecisionAsk || o.Message != "sure?" || o.RuleKey != "k" {
			t.Errorf("order %v: %s %q %q, want ask with its message and rule key", names(order), o.Decision, o.Message, o.RuleKey)
		}
	}
	if o := Fold(preTool, nil, reps(a)); o.Decision != DecisionAllow || o.Message != "ok" {
		t.Errorf("allow alone: %s %q", o.Decision, o.Message)
	}
	if o := Fold(preTool, nil, reps(&Contribution{Decision: DecisionNone, Message: "x"}, nil)); o.Decision != DecisionNone || o.Message != "" {
		t.Errorf("none: %s %q", o.Decision, o.Message)
	}
}

func names(cs []*Contribution) string {
	var s []string
	for _, c := range cs {
		if c == nil {
			s = append(s, "nil")
		} else {
			s = append(s, string(c.Decision))
		}
	}
	return strings.Join(s, ",")
}

// Rule 2: the message is the first (config order) of the winning decision,
// even when a later hook gives the same decision.
func TestFoldFirstMessageOfWinningDecision(t *testing.T) {
	o := Fold(preTool, nil, reps(ask("q1", "k1"), block("first"), ask("q2", "k2"), block("second")))
	if o.Decision != DecisionBlock || o.Message != "first" {
		t.Errorf("got %s %q, want block \"first\"", o.Decision, o.Message)
	}
	o = Fold(preTool, nil, reps(allow("a1"), ask("q1", "k1"), ask("q2", "k2")))
	if o.Message != "q1" || o.RuleKey != "k1" {
		t.Errorf("first ask: %q %q", o.Message, o.RuleKey)
	}
	// Every message stays in the per-hook reports.
	if len(o.Hooks) != 3 || o.Hooks[2].Contribution.Message != "q2" {
		t.Errorf("reports lost: %+v", o.Hooks)
	}
}

// Hermes checklist L136 (#87420): approve then block → block; block then
// approve → block; the first approve's rule key is kept when nothing blocks.
func TestFoldL136ApproveAndBlock(t *testing.T) {
	for _, order := range [][]*Contribution{{ask("", "r1"), block("b")}, {block("b"), ask("", "r1")}} {
		if o := Fold(preTool, nil, reps(order...)); o.Decision != DecisionBlock || o.Message != "b" {
			t.Errorf("%v: %s %q", names(order), o.Decision, o.Message)
		}
	}
	if o := Fold(preTool, nil, reps(ask("", "r1"), ask("", "r2"))); o.RuleKey != "r1" {
		t.Errorf("rule key = %q, want r1", o.RuleKey)
	}
}

// Rule 4 with the Hermes dispatcher cases L127–L134.
func TestFoldHermesModifyMerge(t *testing.T) {
	cases := []struct {
		name     string
		original any
		cs       []*Contribution
		want     map[string]any
	}{
		{"L127_modify_over_original", map[string]any{"path": "/unsafe/dir", "content": "x"},
			[]*Contribution{modify(map[string]any{"path": "/safe/dir"})},
			map[string]any{"path": "/safe/dir", "content": "x"}},
		{"L128_two_modifies_both_applied", map[string]any{"path": "/p", "content": "c"},
			[]*Contribution{modify(map[string]any{"path": "/safe"}), modify(map[string]any{"content": "safe"})},
			map[string]any{"path": "/safe", "content": "safe"}},
		{"L129_same_key_later_wins", map[string]any{"path": "/p"},
			[]*Contribution{modify(map[string]any{"path": "/first"}), modify(map[string]any{"path": "/second"})},
			map[string]any{"path": "/second"}},
		{"L132_nil_original", nil,
			[]*Contribution{modify(map[string]any{"path": "/safe"})},
			map[string]any{"path": "/safe"}},
		{"L132_non_mapping_original", []any{"x"},
			[]*Contribution{modify(map[string]any{"path": "/safe"})},
			map[string]any{"path": "/safe"}},
		{"L134_empty_modify_ignored_later_applied", map[string]any{"a": "1"},
			[]*Contribution{modify(map[string]any{}), nil, modify(map[string]any{"b": "2"})},
			map[string]any{"a": "1", "b": "2"}},
		{"L133_no_hooks", map[string]any{"a": "1"}, nil, nil},
		{"only_empty_modify_is_no_rewrite", map[string]any{"a": "1"}, []*Contribution{modify(map[string]any{})}, nil},
		{"no_rewrite_args_nil", map[string]any{"a": "1"}, []*Contribution{block("x"), &Contribution{Context: "c"}}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := Fold(preTool, tc.original, reps(tc.cs...))
			if !reflect.DeepEqual(o.Args, tc.want) {
				t.Errorf("Args = %#v, want %#v", o.Args, tc.want)
			}
		})
	}
}

func TestFoldDoesNotMutateOriginalOrContributions(t *testing.T) {
	original := map[string]any{"path": "/unsafe", "keep": "k"}
	m1 := map[string]any{"path": "/safe"}
	r := map[string]any{"new": "n"}
	o := Fold(preTool, original, reps(modify(m1), replace(r), modify(map[string]any{"x": "y"})))
	if !reflect.DeepEqual(original, map[string]any{"path": "/unsafe", "keep": "k"}) {
		t.Errorf("original mutated: %v", original)
	}
	if !reflect.DeepEqual(m1, map[string]any{"path": "/safe"}) || !reflect.DeepEqual(r, map[string]any{"new": "n"}) {
		t.Errorf("contribution args mutated: %v %v", m1, r)
	}
	if !reflect.DeepEqual(o.Args, map[string]any{"new": "n", "x": "y"}) {
		t.Errorf("Args = %v", o.Args)
	}
	o.Args["z"] = "w"
	if _, leaked := r["z"]; leaked {
		t.Error("Outcome.Args aliases a contribution's map")
	}
	// The same when the replacement is the last rewrite.
	last := map[string]any{"only": "1"}
	o = Fold(preTool, original, reps(replace(last)))
	o.Args["z"] = "w"
	if _, leaked := last["z"]; leaked {
		t.Error("Outcome.Args aliases the updatedInput map")
	}
}

// Rule 4: a Claude updatedInput replaces the whole input.
func TestFoldClaudeReplaceArgs(t *testing.T) {
	orig := map[string]any{"command": "rm -rf /", "timeout": json.Number("5")}
	o := Fold(preTool, orig, reps(replace(map[string]any{"command": "ls"})))
	if !reflect.DeepEqual(o.Args, map[string]any{"command": "ls"}) {
		t.Errorf("replace: %v", o.Args)
	}
	o = Fold(preTool, orig, reps(modify(map[string]any{"a": "1"}), replace(map[string]any{"command": "ls"})))
	if !reflect.DeepEqual(o.Args, map[string]any{"command": "ls"}) {
		t.Errorf("modify then replace: %v", o.Args)
	}
	o = Fold(preTool, orig, reps(replace(map[string]any{"command": "ls"}), modify(map[string]any{"a": "1"})))
	if !reflect.DeepEqual(o.Args, map[string]any{"command": "ls", "a": "1"}) {
		t.Errorf("replace then modify: %v", o.Args)
	}
	o = Fold(preTool, orig, reps(replace(map[string]any{})))
	if o.Args == nil || len(o.Args) != 0 {
		t.Errorf("replace with {}: %#v, want an empty (non-nil) map", o.Args)
	}
}

// Rule 4, L130: modify then block keeps the block and the modified args.
func TestFoldL130ModifyThenBlockKeepsArgs(t *testing.T) {
	o := Fold(preTool, map[string]any{"path": "/p"}, reps(modify(map[string]any{"path": "/safe"}), block("stop")))
	if o.Decision != DecisionBlock || o.Message != "stop" || !reflect.DeepEqual(o.Args, map[string]any{"path": "/safe"}) {
		t.Errorf("got %s %q %v", o.Decision, o.Message, o.Args)
	}
	if w := string(pyjson.Encode(o.HermesWire(), pyjson.Compact)); w != `{"action":"block","message":"stop"}` {
		t.Errorf("wire = %s", w)
	}
}

// Rule 4 says rewrites apply in config order and are kept even when
// blocked; unlike Hermes' dispatcher (L131: block then modify → modified
// args null, because Hermes returns at the first block) a later modify is
// still recorded. The wire shape is the block either way.
func TestFoldBlockThenModifyRecordsArgs(t *testing.T) {
	o := Fold(preTool, map[string]any{"path": "/p"}, reps(block("stop"), modify(map[string]any{"path": "/safe"})))
	if o.Decision != DecisionBlock || o.Message != "stop" {
		t.Errorf("got %s %q", o.Decision, o.Message)
	}
	if !reflect.DeepEqual(o.Args, map[string]any{"path": "/safe"}) {
		t.Errorf("Args = %v, want the later rewrite recorded (doc.go rule 4)", o.Args)
	}
	if w := string(pyjson.Encode(o.HermesWire(), pyjson.Compact)); w != `{"action":"block","message":"stop"}` {
		t.Errorf("wire = %s", w)
	}
}

// Rule 5: every non-empty context, config order, joined by a blank line.
func TestFoldContextJoined(t *testing.T) {
	o := Fold(ev("pre_llm_call"), nil, reps(&Contribution{Context: "one"}, nil, &Contribution{Context: ""},
		&Contribution{Context: "two\n"}, &Contribution{Context: "three"}))
	if o.Context != "one\n\ntwo\n\n\nthree" {
		t.Errorf("Context = %q", o.Context)
	}
	if o := Fold(ev("pre_llm_call"), nil, nil); o.Context != "" {
		t.Errorf("no context: %q", o.Context)
	}
}

// Rule 9 (issue 31, item 16): unmodelled hookSpecificOutput members merge
// in config order, later keys winning; a shadow entry's never reach the
// outcome; none leaves the outcome's nil (and its JSON without the key).
func TestFoldHookSpecificMerged(t *testing.T) {
	rs := reps(&Contribution{HookSpecific: map[string]any{"sessionTitle": "first", "watchPaths": []any{"a"}}}, nil,
		&Contribution{HookSpecific: map[string]any{"sessionTitle": "second"}},
		&Contribution{HookSpecific: map[string]any{"initialUserMessage": "shadowed"}})
	rs[3].Shadow = true
	o := Fold(ev("on_session_start"), nil, rs)
	want := map[string]any{"sessionTitle": "second", "watchPaths": []any{"a"}}
	if !reflect.DeepEqual(o.HookSpecific, want) {
		t.Errorf("HookSpecific = %v, want %v", o.HookSpecific, want)
	}
	if o := Fold(preTool, nil, reps(&Contribution{Context: "x"})); o.HookSpecific != nil || strings.Contains(string(AppendOutcome(nil, &o, pyjson.Compact)), "hook_specific") {
		t.Errorf("no members: HookSpecific = %v", o.HookSpecific)
	}
}

// Rule 6: any stop stops; the first non-empty reason (of a stopping
// contribution) wins.
func TestFoldStop(t *testing.T) {
	o := Fold(preTool, nil, reps(&Contribution{}, &Contribution{StopReason: "not stopping"},
		&Contribution{Stop: true}, &Contribution{Stop: true, StopReason: "first"}, &Contribution{Stop: true, StopReason: "second"}))
	if !o.Stop || o.StopReason != "first" {
		t.Errorf("Stop = %v, StopReason = %q; want true, \"first\"", o.Stop, o.StopReason)
	}
	if o := Fold(preTool, nil, reps(&Contribution{StopReason: "x"}, block("b"))); o.Stop || o.StopReason != "" {
		t.Errorf("no stop: %v %q", o.Stop, o.StopReason)
	}
}

// Rule 7: system messages joined with "\n" in config order.
func TestFoldSystemMessages(t *testing.T) {
	o := Fold(preTool, nil, reps(&Contribution{SystemMessage: "a"}, &Contribution{}, &Contribution{SystemMessage: "b"}))
	if o.SystemMessage != "a\nb" {
		t.Errorf("SystemMessage = %q", o.SystemMessage)
	}
}

// Rule 8: the last non-empty replacement wins; absent or empty leaves the
// text unchanged.
func TestFoldResult(t *testing.T) {
	o := Fold(ev("transform_llm_output"), nil, reps(&Contribution{Result: ptr("one")}, &Contribution{Result: ptr("two")},
		&Contribution{Result: ptr("")}, &Contribution{}))
	if o.Result == nil || *o.Result != "two" {
		t.Errorf("Result = %v, want two", o.Result)
	}
	if o := Fold(ev("transform_llm_output"), nil, reps(&Contribution{Result: ptr("")})); o.Result != nil {
		t.Errorf("empty replacement: Result = %q, want nil", *o.Result)
	}
	src := "mine"
	o = Fold(ev("transform_llm_output"), nil, reps(&Contribution{Result: &src}))
	src = "changed"
	if *o.Result != "mine" {
		t.Error("Outcome.Result aliases the contribution's string")
	}
}

// Rule 9: injections are kept in config order, each kind joined with a
// blank line; metadata maps merge in config order, later keys winning;
// session state patches are not folded (they stay in the reports).
func TestFoldInjectionsMetadataState(t *testing.T) {
	m1 := map[string]any{"k": json.Number("1"), "x": "a"}
	m2 := map[string]any{"k": json.Number("2")}
	o := Fold(ev("pre_llm_call"), nil, reps(
		&Contribution{InjectSystem: "s1", Metadata: m1},
		&Contribution{InjectUser: "u1", Metadata: map[string]any{}},
		&Contribution{InjectSystem: "", InjectUser: "u2", State: map[string]any{"session": "x"}},
		&Contribution{InjectSystem: "s2", Metadata: m2},
	))
	if o.InjectSystem != "s1\n\ns2" || o.InjectUser != "u1\n\nu2" {
		t.Errorf("injections = %q / %q", o.InjectSystem, o.InjectUser)
	}
	if !reflect.DeepEqual(o.Metadata, map[string]any{"k": json.Number("2"), "x": "a"}) {
		t.Errorf("Metadata = %v", o.Metadata)
	}
	if !reflect.DeepEqual(m1, map[string]any{"k": json.Number("1"), "x": "a"}) {
		t.Errorf("a contribution's metadata was modified: %v", m1)
	}
	b, _ := o.MarshalJSON()
	if keys := topLevelKeys(t, b); contains(keys, "state") {
		t.Errorf("state folded into the outcome: %s", b)
	}
	if o.Hooks[2].Contribution.State["session"] != "x" {
		t.Error("state patch lost from its report")
	}
	if o := Fold(ev("pre_llm_call"), nil, reps(&Contribution{Metadata: map[string]any{}}, nil)); o.Metadata != nil {
		t.Errorf("empty metadata gives %v, want nil", o.Metadata)
	}
	if b, _ := Fold(ev("pre_llm_call"), nil, nil).MarshalJSON(); strings.Contains(string(b), "inject") || strings.Contains(string(b), "metadata") {
		t.Errorf("empty extension fields rendered: %s", b)
	}
}

// Rules 1 and 10: the reports are kept in config order; failures (nil
// contributions) contribute nothing; the event is the canonical name.
func TestFoldReportsAndEvent(t *testing.T) {
	rs := reps(nil, block("b"), nil)
	rs[0].Error, rs[0].ExitCode, rs[0].Ran = "command not found", nil, false
	o := Fold(ev("PreToolUse"), nil, rs)
	if o.Event != "pre_tool_call" {
		t.Errorf("Event = %q, want the canonical name", o.Event)
	}
	if len(o.Hooks) != 3 || o.Hooks[0].Error != "command not found" || o.Hooks[1].Contribution.Message != "b" {
		t.Errorf("Hooks = %+v", o.Hooks)
	}
	if o := Fold(nil, nil, nil); o.Event != "" || o.Decision != DecisionNone || o.Blocked() {
		t.Errorf("nil event: %+v", o)
	}
	if b := Fold(preTool, nil, reps(block("x"))); !b.Blocked() {
		t.Error("Blocked() false for a block")
	}
}

// Rule 1: the fold is a function of config order only.
func TestFoldDeterministic(t *testing.T) {
	rs := reps(modify(map[string]any{"a": "1"}), &Contribution{Context: "c1"}, ask("q", "k"),
		&Contribution{SystemMessage: "s"}, block("b1"), &Contribution{Context: "c2", Stop: true, StopReason: "r"})
	first, _ := json.Marshal(Fold(preTool, map[string]any{"x": "y"}, rs))
	for i := 0; i < 50; i++ {
		again, _ := json.Marshal(Fold(preTool, map[string]any{"x": "y"}, rs))
		if string(again) != string(first) {
			t.Fatalf("fold not deterministic:\n%s\n%s", first, again)
		}
	}
}

// ---- Outcome JSON ------------------------------------------------------

func TestOutcomeJSONZeroValue(t *testing.T) {
	var o Outcome
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"event":"","decision":"none","stop":false,"hooks":[]}` {
		t.Errorf("zero outcome = %s", b)
	}
	b, _ = json.Marshal(Fold(preTool, nil, nil))
	if string(b) != `{"event":"pre_tool_call","decision":"none","stop":false,"hooks":[]}` {
		t.Errorf("empty fold = %s", b)
	}
}

func fullOutcome() Outcome {
	return Outcome{
		Event: "pre_tool_call", Decision: DecisionBlock, Message: "no", RuleKey: "rk",
		Args: map[string]any{"b": "2", "a": json.Number("1")}, Context: "ctx", Stop: true, StopReason: "sr",
		SystemMessage: "sys", Result: ptr("res"), InjectSystem: "is", InjectUser: "iu",
		Metadata: map[string]any{"m": true},
		Hooks: []HookReport{{
			Event: "PreToolUse", Command: "c", Dialect: Claude, Matcher: "Bash", Source: "/s.json", Ran: true,
			Skipped: "", ExitCode: ptr(2), ElapsedMS: 12.5, TimedOut: false, Error: "e", StdoutTruncated: true,
			StderrTruncated: true, Note: "n",
			Contribution: &Contribution{Decision: DecisionBlock, Message: "m", RuleKey: "k", Args: map[string]any{"x": "y"},
				ReplaceArgs: true, Context: "c", Stop: true, StopReason: "s", SystemMessage: "sm", Result: ptr("r"),
				InjectSystem: "cis", InjectUser: "ciu", Metadata: map[string]any{"cm": "1"}, State: map[string]any{"st": nil}},
		}, {
			Event: "pre_tool_call", Command: "d", Dialect: Hermes, Ran: false, Skipped: "not allowlisted",
		}},
	}
}

func TestOutcomeJSONKeyOrder(t *testing.T) {
	b, err := json.Marshal(fullOutcome())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"event":"pre_tool_call","decision":"block","message":"no","rule_key":"rk","args":{"a":1,"b":"2"},` +
		`"context":"ctx","stop":true,"stop_reason":"sr","system_message":"sys","result":"res",` +
		`"inject_system":"is","inject_user":"iu","metadata":{"m":true},"hooks":[` +
		`{"event":"PreToolUse","command":"c","dialect":"claude","matcher":"Bash","source":"/s.json","ran":true,` +
		`"exit_code":2,"elapsed_ms":12.5,"timed_out":false,"error":"e","stdout_truncated":true,"stderr_truncated":true,` +
		`"note":"n","contribution":{"decision":"block","message":"m","rule_key":"k","args":{"x":"y"},"replace_args":true,` +
		`"context":"c","stop":true,"stop_reason":"s","system_message":"sm","result":"r",` +
		`"inject_system":"cis","inject_user":"ciu","metadata":{"cm":"1"},"state":{"st":null}}},` +
		`{"event":"pre_tool_call","command":"d","dialect":"hermes","ran":false,"skipped":"not allowlisted",` +
		`"exit_code":null,"elapsed_ms":0,"timed_out":false,"contribution":null}]}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
	// The schema's property order is the documented order.
	keys := topLevelKeys(t, b)
	if !reflect.DeepEqual(keys, []string{"event", "decision", "message", "rule_key", "args", "context", "stop",
		"stop_reason", "system_message", "result", "inject_system", "inject_user", "metadata", "hooks"}) {
		t.Errorf("keys = %v", keys)
	}
}

func TestOutcomeJSONEscapingAndStyles(t *testing.T) {
	o := Outcome{Event: "pre_tool_call", Decision: DecisionBlock, Message: "<é> & \"q\"\n"}
	b, _ := o.MarshalJSON()
	if !strings.Contains(string(b), `"message":"<é> & \"q\"\n"`) {
		t.Errorf("compact, no HTML escaping, raw UTF-8: %s", b)
	}
	// encoding/json HTML-escapes whatever MarshalJSON returns; the document
	// means the same.
	viaStd, _ := json.Marshal(o)
	var x1, x2 any
	if json.Unmarshal(b, &x1) != nil || json.Unmarshal(viaStd, &x2) != nil || !reflect.DeepEqual(x1, x2) {
		t.Errorf("json.Marshal and MarshalJSON disagree: %s vs %s", viaStd, b)
	}
	p := string(AppendOutcome(nil, &o, pyjson.Python))
	if !strings.HasPrefix(p, `{"event": "pre_tool_call", "decision": "block", "message": "<é>`) {
		t.Errorf("Python style: %s", p)
	}
	a := string(AppendOutcome([]byte("x"), &o, pyjson.PythonASCII))
	if !strings.HasPrefix(a, `x{"event": "pre_tool_call", "decision": "block", "message": "<\u00e9>`) {
		t.Errorf("PythonASCII style: %s", a)
	}
}

func TestOutcomeJSONRoundTrip(t *testing.T) {
	outcomes := []Outcome{{}, fullOutcome(), Fold(preTool, nil, nil),
		Fold(preTool, map[string]any{"a": "b"}, reps(modify(map[string]any{"a": "c"}), ask("q", "k"), nil))}
	for i, o := range outcomes {
		b1, err := json.Marshal(o)
		if err != nil {
			t.Fatal(err)
		}
		var back Outcome
		if err := json.Unmarshal(b1, &back); err != nil {
			t.Fatalf("%d: Unmarshal(%s): %v", i, b1, err)
		}
		b2, _ := json.Marshal(back)
		if string(b1) != string(b2) {
			t.Errorf("%d: round trip changed the JSON:\n%s\n%s", i, b1, b2)
		}
		wantDecision := o.Decision
		if wantDecision == "" {
			wantDecision = DecisionNone
		}
		if back.Event != o.Event || back.Decision != wantDecision || back.Message != o.Message ||
			back.Stop != o.Stop || len(back.Hooks) != len(o.Hooks) {
			t.Errorf("%d: round trip lost fields: %+v", i, back)
		}
	}
	var back Outcome
	_ = json.Unmarshal([]byte(`{"event":"pre_tool_call","decision":"block","message":"m","stop":false,"hooks":[{"event":"e","command":"c","dialect":"hermes","ran":true,"exit_code":-9,"elapsed_ms":1,"timed_out":true,"contribution":{"decision":"ask","rule_key":"k"}}]}`), &back)
	if back.Hooks[0].ExitCode == nil || *back.Hooks[0].ExitCode != -9 || back.Hooks[0].Contribution.RuleKey != "k" ||
		back.Hooks[0].Contribution.Decision != DecisionAsk || !back.Hooks[0].TimedOut {
		t.Errorf("decoded report = %+v", back.Hooks[0])
	}
	if err := json.Unmarshal([]byte(`{"event":1}`), &back); err == nil {
		t.Error("UnmarshalJSON accepted a number for event")
	}
}

func TestContributionJSON(t *testing.T) {
	b, _ := json.Marshal(Contribution{})
	if string(b) != `{}` {
		t.Errorf("empty contribution = %s", b)
	}
	b, _ = json.Marshal(Contribution{Decision: DecisionNone, Result: ptr("")})
	if string(b) != `{"result":""}` {
		t.Errorf("none decision / empty result = %s", b)
	}
}

// ---- Hermes wire shapes -----------------------------------------------

func TestOutcomeHermesWire(t *testing.T) {
	cases := []struct {
		name string
		o    Outcome
		want string
	}{
		{"block", Outcome{Event: "pre_tool_call", Decision: DecisionBlock, Message: "no", Context: "c",
			Args: map[string]any{"a": "b"}}, `{"action":"block","message":"no"}`},
		{"approve_message_rule_key", Outcome{Event: "pre_tool_call", Decision: DecisionAsk, Message: "why", RuleKey: "k"},
			`{"action":"approve","message":"why","rule_key":"k"}`},
		{"approve_bare", Outcome{Event: "pre_tool_call", Decision: DecisionAsk}, `{"action":"approve"}`},
		{"modify", Outcome{Event: "pre_tool_call", Decision: DecisionAllow, Args: map[string]any{"path": "/safe"}},
			`{"action":"modify","args":{"path":"/safe"}}`},
		// Hermes ignores an empty modify: the call would run as sent.
		{"modify_empty_args", Outcome{Event: "pre_tool_call", Args: map[string]any{}},
			`{"action":"block","message":"hermes-hooks: a hook rewrote this call's arguments, and Hermes ignores a rewrite to no arguments: the call would run as sent; it is refused rather than run as nobody judged it"}`},
		// Hermes' approve has no arguments: approved, the original would run.
		{"ask_with_rewrite", Outcome{Event: "pre_tool_call", Decision: DecisionAsk, Message: "sure?", Args: map[string]any{"command": "ls"}},
			`{"action":"block","message":"hermes-hooks: a hook rewrote this call's arguments, and Hermes' approve carries no arguments: once approved, the call would run as sent; it is refused rather than run as nobody judged it"}`},
		{"pre_tool_call_context", Outcome{Event: "pre_tool_call", Decision: DecisionAllow, Context: "c"}, `{"context":"c"}`},
		{"pre_tool_call_allow_nothing", Outcome{Event: "pre_tool_call", Decision: DecisionAllow, Message: "fine"}, `{}`},
		{"pre_verify_continue", Outcome{Event: "pre_verify", Decision: DecisionBlock, Message: "run checks"},
			`{"action":"continue","message":"run checks"}`},
		{"subagent_stop_continue", Outcome{Event: "subagent_stop", Decision: DecisionBlock, Message: "more"},
			`{"action":"continue","message":"more"}`},
		{"context", Outcome{Event: "pre_llm_call", Context: "a\n\nb"}, `{"context":"a\n\nb"}`},
		{"post_tool_call_feedback_as_context", Outcome{Event: "post_tool_call", Decision: DecisionBlock, Message: "lint", Context: "ctx"},
			`{"context":"lint\n\nctx"}`},
		{"result", Outcome{Event: "transform_llm_output", Result: ptr("new"), Context: "c"}, `{"result":"new"}`},
		{"pre_llm_call_block_refuses_turn", Outcome{Event: "pre_llm_call", Decision: DecisionBlock, Message: "secret", Context: "c"},
			`{"action":"block","message":"secret"}`},
		{"transform_user_input_block", Outcome{Event: "transform_user_input", Decision: DecisionBlock, Message: "no"},
			`{"action":"block","message":"no"}`},
		{"empty", Outcome{Event: "pre_tool_call"}, `{}`},
		{"zero", Outcome{}, `{}`},
		// A Claude continue:false on a tool event: the tool must not run
		// (issue 23 item 3), whatever else was decided.
		{"stop_tool_blocks", Outcome{Event: "pre_tool_call", Stop: true, StopReason: "r", SystemMessage: "s"}, `{"action":"block","message":"r"}`},
		{"stop_tool_no_reason", Outcome{Event: "pre_tool_call", Stop: true}, `{"action":"block","message":"Blocked by hook"}`},
		{"stop_beats_ask", Outcome{Event: "pre_tool_call", Decision: DecisionAsk, Message: "sure?", Stop: true, StopReason: "r"}, `{"action":"block","message":"r"}`},
		{"stop_beats_modify", Outcome{Event: "pre_tool_call", Args: map[string]any{"a": "b"}, Stop: true, StopReason: "r"}, `{"action":"block","message":"r"}`},
		{"block_message_kept_with_stop", Outcome{Event: "pre_tool_call", Decision: DecisionBlock, Message: "no", Stop: true, StopReason: "r"}, `{"action":"block","message":"no"}`},
		{"stop_elsewhere_unchanged", Outcome{Event: "post_llm_call", Stop: true, StopReason: "r"}, `{}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(pyjson.Encode(tc.o.HermesWire(), pyjson.Compact)); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
		})
	}
	// PythonASCII is the form of Hermes' "parsed (Hermes wire shape)" lines.
	o := Outcome{Event: "pre_tool_call", Decision: DecisionBlock, Message: "nö"}
	if got := string(pyjson.Encode(o.HermesWire(), pyjson.PythonASCII)); got != `{"action": "block", "message": "n\u00f6"}` {
		t.Errorf("PythonASCII wire = %s", got)
	}
}

func TestContributionHermesWire(t *testing.T) {
	if _, ok := (&Contribution{}).HermesWire(preTool); ok {
		t.Error("empty contribution renders")
	}
	var nilC *Contribution
	if _, ok := nilC.HermesWire(preTool); ok {
		t.Error("nil contribution renders")
	}
	if w := wireString(modify(map[string]any{"a": "b"}), preTool); w != `{"action":"modify","args":{"a":"b"}}` {
		t.Errorf("lone modify = %s", w)
	}
	// An empty Hermes modify is a contribution with nothing to render.
	if w, ok := modify(map[string]any{}).HermesWire(preTool); !ok || string(pyjson.Encode(w, pyjson.Compact)) != `{"action":"modify","args":{}}` {
		t.Errorf("empty modify = %s, %v", pyjson.Encode(w, pyjson.Compact), ok)
	}
	if w := wireString(&Contribution{Stop: true}, preTool); w != `{"action":"block","message":"Blocked by hook"}` {
		t.Errorf("stop only = %s", w)
	}
}

// ---- Schema ------------------------------------------------------------

func outcomeValidator(t testing.TB) *schemaValidator {
	t.Helper()
	sv, err := newSchemaValidator(OutcomeSchema)
	if err != nil {
		t.Fatalf("outcome.schema.json: %v", err)
	}
	return sv
}

// reportFor turns a parsed table case into the report a dispatcher would
// write for it.
func reportFor(d Dialect, tc replyCase, i int) HookReport {
	c, note := ParseReply(tc.reply(d))
	r := HookReport{Event: tc.event, Command: testCommand, Dialect: d, Ran: true, ElapsedMS: float64(i) * 1.25,
		TimedOut: tc.timedOut, Error: tc.spawnErr, Note: note, Contribution: c}
	switch {
	case tc.spawnErr != "":
		r.Ran = false
	case tc.timedOut:
	default:
		r.ExitCode = ptr(tc.exit)
	}
	if i%3 == 0 {
		r.Matcher, r.Source = "terminal|Bash", "/home/u/.hermes/config.yaml"
	}
	if i%4 == 1 {
		r.StdoutTruncated, r.StderrTruncated = true, i%8 == 1
	}
	return r
}

type dialectCase struct {
	d  Dialect
	tc replyCase
}

func allReplyCases() []dialectCase {
	var out []dialectCase
	for _, tc := range hermesSectionA {
		out = append(out, dialectCase{Hermes, tc})
	}
	for _, tc := range hermesSectionH {
		out = append(out, dialectCase{Hermes, tc})
	}
	for _, tc := range claudeCompatCases {
		out = append(out, dialectCase{Claude, tc})
	}
	for _, tc := range claudeRuleCases {
		out = append(out, dialectCase{Claude, tc})
	}
	return out
}

func TestOutcomeSchemaValidatesRealOutcomes(t *testing.T) {
	sv := outcomeValidator(t)
	check := func(name string, o Outcome) {
		t.Helper()
		b, err := json.Marshal(o)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if errs := sv.validateJSON(b); len(errs) > 0 {
			t.Errorf("%s: outcome violates the schema:\n  %s\n%s", name, strings.Join(errs, "\n  "), b)
		}
		// The Python styles are the same document.
		if errs := sv.validateJSON(AppendOutcome(nil, &o, pyjson.PythonASCII)); len(errs) > 0 {
			t.Errorf("%s (PythonASCII): %v", name, errs)
		}
	}
	cases := allReplyCases()
	byEvent := map[string][]HookReport{}
	var everything []HookReport
	for i, dc := range cases {
		r := reportFor(dc.d, dc.tc, i)
		e := ev(dc.tc.event)
		check(fmt.Sprintf("%s/%s", dc.d, dc.tc.name), Fold(e, map[string]any{"command": "ls"}, []HookReport{r}))
		byEvent[e.Name] = append(byEvent[e.Name], r)
		everything = append(everything, r)
	}
	for name, rs := range byEvent {
		check("all replies on "+name, Fold(ev(name), map[string]any{"command": "ls", "n": json.Number("1")}, rs))
	}
	check("everything on pre_tool_call", Fold(preTool, nil, everything))
	check("everything on pre_verify", Fold(ev("pre_verify"), []any{"x"}, everything))
	check("zero", Outcome{})
	check("full", fullOutcome())
	skipped := HookReport{Event: "pre_tool_call", Command: "x", Dialect: Hermes, Skipped: "script changed since approval"}
	timedOut := HookReport{Event: "Stop", Command: "y", Dialect: Claude, Ran: true, TimedOut: true, ElapsedMS: 600000,
		Error: "timed out after 600s", Note: "timed out after 600s"}
	signal := HookReport{Event: "pre_tool_call", Command: "z", Dialect: Hermes, Ran: true, ExitCode: ptr(-9), ElapsedMS: 3}
	check("skipped/timed out/signal", Fold(preTool, nil, []HookReport{skipped, timedOut, signal}))
	// Replies using the runtime-extension keys (inject_*, rewrite, result,
	// metadata, state) land in the schema's newer members.
	var ext []HookReport
	for i, x := range []struct{ event, stdout string }{
		{"pre_llm_call", `{"action":"inject_system","value":"sys","metadata":{"m":1},"state":{"k":null}}`},
		{"pre_llm_call", `{"action":"inject_user","value":"usr","context":"ctx"}`},
		{"pre_llm_call", `{"action":"block","message":"refused"}`},
		{"transform_llm_output", `{"action":"rewrite","value":"new text"}`},
		{"transform_tool_result", `{"result":{"ok":true}}`},
		{"transform_user_input", `{"result":"rewritten"}`},
		{"pre_tool_call", `{"action":"rewrite","value":{"path":"/safe"},"metadata":{"by":"x"}}`},
	} {
		r := reportFor(Hermes, replyCase{event: x.event, stdout: x.stdout}, i)
		if r.Contribution == nil {
			t.Logf("%s %s contributed nothing; the schema check below covers less", x.event, x.stdout)
		}
		check("extension "+x.event, Fold(ev(x.event), nil, []HookReport{r}))
		ext = append(ext, r)
	}
	check("extensions folded", Fold(ev("pre_llm_call"), nil, ext))
	if len(everything) < 150 {
		t.Errorf("only %d reports validated; the tables shrank", len(everything))
	}
}

// The validator must be able to fail: each mutation of a valid outcome is
// rejected, for the reason stated.
func TestOutcomeSchemaRejectsInvalidDocuments(t *testing.T) {
	sv := outcomeValidator(t)
	valid := `{"event":"pre_tool_call","decision":"block","message":"m","stop":false,"hooks":[` +
		`{"event":"e","command":"c","dialect":"hermes","ran":true,"exit_code":2,"elapsed_ms":1.5,"timed_out":false,` +
		`"contribution":{"decision":"block","message":"m"}},` +
		`{"event":"e","command":"c","dialect":"claude","ran":false,"exit_code":null,"elapsed_ms":0,"timed_out":false,"contribution":null}]}`
	if errs := sv.validateJSON([]byte(valid)); len(errs) > 0 {
		t.Fatalf("baseline rejected: %v", errs)
	}
	bad := []struct{ name, from, to, why string }{
		{"decision_maybe", `"decision":"block","message":"m","stop"`, `"decision":"maybe","message":"m","stop"`, "is not one of"},
		{"extra_top_level_key", `"stop":false,`, `"stop":false,"extra":1,`, `additional property "extra"`},
		{"missing_hooks", `,"hooks":[`, `,"hookz":[`, `missing required property "hooks"`},
		{"missing_stop", `"stop":false,`, ``, `missing required property "stop"`},
		{"stop_string", `"stop":false,`, `"stop":"false",`, "want boolean"},
		{"message_number", `"message":"m","stop"`, `"message":5,"stop"`, "want string"},
		{"args_array", `"stop":false,`, `"stop":false,"args":[],`, "want object"},
		{"exit_code_fraction", `"exit_code":2,`, `"exit_code":2.5,`, "want integer or null"},
		{"exit_code_string", `"exit_code":2,`, `"exit_code":"2",`, "want integer or null"},
		{"elapsed_negative", `"elapsed_ms":1.5`, `"elapsed_ms":-0.001`, "below the minimum"},
		{"dialect_cursor", `"dialect":"hermes"`, `"dialect":"cursor"`, "is not one of"},
		{"report_missing_ran", `"ran":true,`, ``, `missing required property "ran"`},
		{"report_extra_key", `"ran":true,`, `"ran":true,"pid":1,`, `additional property "pid"`},
		{"contribution_decision_none", `"contribution":{"decision":"block"`, `"contribution":{"decision":"none"`, "oneOf"},
		{"contribution_string", `"contribution":null`, `"contribution":"none"`, "oneOf"},
		{"contribution_extra_key", `"message":"m"}}`, `"message":"m","why":1}}`, "oneOf"},
		{"hooks_null", `"hooks":[`, `"hooks":null,"x":[`, "want array"},
		{"state_is_not_an_outcome_member", `"stop":false,`, `"stop":false,"state":{},`, `additional property "state"`},
		{"metadata_not_object", `"stop":false,`, `"stop":false,"metadata":[],`, "want object"},
		{"hook_item_not_object", `"hooks":[`, `"hooks":[1,`, "want object"},
	}
	for _, b := range bad {
		t.Run(b.name, func(t *testing.T) {
			doc := strings.Replace(valid, b.from, b.to, 1)
			if doc == valid {
				t.Fatalf("mutation %q did not apply", b.from)
			}
			errs := sv.validateJSON([]byte(doc))
			if len(errs) == 0 {
				t.Fatalf("invalid document accepted: %s", doc)
			}
			if joined := strings.Join(errs, "; "); !strings.Contains(joined, b.why) {
				t.Errorf("errors %q do not mention %q", joined, b.why)
			}
		})
	}
	if errs := sv.validateJSON([]byte(`[]`)); len(errs) == 0 {
		t.Error("an array accepted as an outcome")
	}
	if errs := sv.validateJSON([]byte(`{"event":"e","decision":"none","stop":false,"hooks":[]} x`)); len(errs) == 0 {
		t.Error("trailing garbage accepted")
	}
}

// The validator refuses schema keywords it does not implement, so the test
// above cannot pass by ignoring a constraint.
func TestSchemaValidatorRefusesUnknownKeywords(t *testing.T) {
	for _, s := range []string{
		`{"type":"object","pattern":"x"}`,
		`{"properties":{"a":{"maxLength":3}}}`,
		`{"additionalProperties":{"type":"string"}}`,
		`{"$ref":"#/definitions/x"}`,
		`{"$ref":"#/$defs/missing","$defs":{}}`,
		`{"items":{"anyOf":[]}}`,
	} {
		if _, err := newSchemaValidator([]byte(s)); err == nil {
			t.Errorf("schema %s accepted", s)
		}
	}
	// Integers per JSON Schema include 1.0; numbers exclude strings.
	sv, err := newSchemaValidator([]byte(`{"type":["integer","null"],"minimum":0}`))
	if err != nil {
		t.Fatal(err)
	}
	for doc, ok := range map[string]bool{`1`: true, `1.0`: true, `null`: true, `-1`: false, `1.5`: false, `"1"`: false, `1e2`: true} {
		if got := len(sv.validateJSON([]byte(doc))) == 0; got != ok {
			t.Errorf("%s valid = %v, want %v", doc, got, ok)
		}
	}
}

// Claude Code merges deny > defer > ask > allow; a winning defer leaves the
// decision to the host (none) and says so (Deferred), for Claude Code's
// encoder to give the defer back.
func TestFoldDeferRanking(t *testing.T) {
	ev, _ := Lookup("pre_tool_call")
	mk := func(ds ...Decision) []HookReport {
		var r []HookReport
		for _, d := range ds {
			c := &Contribution{Decision: d, Message: string(d)}
			if d == DecisionDefer {
				c.Message = ""
			}
			r = append(r, HookReport{Contribution: c})
		}
		return r
	}
	cases := []struct {
		in       []Decision
		want     Decision
		msg      string
		deferred bool
	}{
		{[]Decision{DecisionAllow, DecisionDefer}, DecisionNone, "", true},
		{[]Decision{DecisionDefer, DecisionAsk}, DecisionNone, "", true},
		{[]Decision{DecisionDefer, DecisionBlock}, DecisionBlock, "block", false},
		{[]Decision{DecisionAsk, DecisionAllow}, DecisionAsk, "ask", false},
	}
	for _, c := range cases {
		o := Fold(ev, nil, mk(c.in...))
		if o.Decision != c.want || o.Message != c.msg || o.Deferred != c.deferred {
			t.Errorf("%v: got %s %q deferred=%v, want %s %q deferred=%v", c.in, o.Decision, o.Message, o.Deferred, c.want, c.msg, c.deferred)
		}
	}
}

// The outcome JSON's keys are defined once, by the structs' json tags: the
// order-keeping encoder (object), the decoder and the schema must name
// exactly those keys, in the tags' order (issue 14).
func TestOutcomeKeysDefinedOnce(t *testing.T) {
	tagged := func(v any) []string {
		var out []string
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			name, _, _ := strings.Cut(rt.Field(i).Tag.Get("json"), ",")
			if name != "" && name != "-" {
				out = append(out, name)
			}
		}
		return out
	}
	keysOf := func(o Object) []string {
		var out []string
		for _, kv := range o {
			out = append(out, kv.Key)
		}
		return out
	}
	var schema struct {
		Properties map[string]any `json:"properties"`
		Defs       map[string]struct {
			Properties map[string]any `json:"properties"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(OutcomeSchema, &schema); err != nil {
		t.Fatal(err)
	}
	sorted := func(m map[string]any) []string {
		out := make([]string, 0, len(m))
		for k := range m {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	sortedCopy := func(s []string) []string { s = slices.Clone(s); sort.Strings(s); return s }

	res, code := "r", 0
	c := Contribution{Decision: DecisionBlock, Message: "m", RuleKey: "k", Args: map[string]any{"a": 1}, ReplaceArgs: true,
		Context: "c", Stop: true, StopReason: "s", SystemMessage: "y", Result: &res, InjectSystem: "i", InjectUser: "u",
		Metadata: map[string]any{"m": 1}, State: map[string]any{"s": 1}, Env: map[string]string{"E": "1"}, HookSpecific: map[string]any{"h": 1}, TerminalSequence: "\a"}
	r := HookReport{Event: "e", Command: "c", Dialect: Hermes, Matcher: "m", Source: "s", Ran: true, Skipped: "x", ExitCode: &code,
		TimedOut: true, Error: "e", StdoutTruncated: true, StderrTruncated: true, Note: "n", ForeignRefusal: true, Shadow: true, Would: "w", Rejudged: true, Contribution: &c}
	o := Outcome{Event: "e", Decision: DecisionBlock, Message: "m", RuleKey: "k", Args: map[string]any{}, Context: "c", Stop: true,
		StopReason: "s", SystemMessage: "y", Result: &res, InjectSystem: "i", InjectUser: "u", Metadata: map[string]any{},
		Env: map[string]string{}, HookSpecific: map[string]any{}, TerminalSequence: "\a", Deferred: true, Unapproved: 2, Hooks: []HookReport{r}}
	for _, tc := range []struct {
		name         string
		tags, object []string
		schema       map[string]any
	}{
		{"Outcome", tagged(Outcome{}), keysOf(o.object()), schema.Properties},
		{"HookReport", tagged(HookReport{}), keysOf(reportObject(&r)), schema.Defs["report"].Properties},
		{"Contribution", tagged(Contribution{}), keysOf(c.object()), schema.Defs["contribution"].Properties},
	} {
		if !slices.Equal(tc.object, tc.tags) {
			t.Errorf("%s: object writes %v, the tags say %v", tc.name, tc.object, tc.tags)
		}
		if got := sorted(tc.schema); !slices.Equal(got, sortedCopy(tc.tags)) {
			t.Errorf("%s: the schema has %v, the tags say %v", tc.name, got, sortedCopy(tc.tags))
		}
	}
}

// claudeRep is a Claude-dialect hook's report.
func claudeRep(c *Contribution) HookReport {
	r := rep(c)
	r.Dialect = Claude
	return r
}

// Rule 2, Claude Code's merge: every blocking Claude hook's reason reaches
// the agent, in config order; a Hermes hook's later block adds nothing
// (Hermes returns at its first block).
func TestFoldJoinsClaudeBlockMessages(t *testing.T) {
	stop := ev("Stop")
	o := Fold(stop, nil, []HookReport{claudeRep(block("run tests")), claudeRep(block("update docs"))})
	if o.Decision != DecisionBlock || o.Message != "run tests\n\nupdate docs" {
		t.Errorf("two Claude blocks: %s %q", o.Decision, o.Message)
	}
	o = Fold(preTool, nil, []HookReport{claudeRep(ask("sure?", "")), claudeRep(block("first")), rep(block("hermes")),
		claudeRep(allow("ok")), claudeRep(block("second"))})
	if o.Message != "first\n\nsecond" {
		t.Errorf("mixed: %q, want the Claude blocks' reasons only", o.Message)
	}
	o = Fold(preTool, nil, []HookReport{rep(block("hermes first")), claudeRep(block("claude"))})
	if o.Message != "hermes first\n\nclaude" {
		t.Errorf("Hermes then Claude: %q", o.Message)
	}
	o = Fold(preTool, nil, reps(block("one"), block("two")))
	if o.Message != "one" {
		t.Errorf("two Hermes blocks: %q, want the first only", o.Message)
	}
	// Asks are not blocks: the first ask's question stays the only one.
	o = Fold(preTool, nil, []HookReport{claudeRep(ask("q1", "")), claudeRep(ask("q2", ""))})
	if o.Message != "q1" {
		t.Errorf("two asks: %q", o.Message)
	}
}

// PermissionRequest's decision members beside behavior and message
// (HookSpecific "decision") go with the decision they came with: those of
// the contributions carrying the outcome's decision, in config order.
func TestFoldDecisionMembersFollowTheDecision(t *testing.T) {
	perm := ev("PermissionRequest")
	withHS := func(c *Contribution, hs map[string]any) *Contribution { c.HookSpecific = hs; return c }
	interrupt := map[string]any{"decision": map[string]any{"interrupt": true}}
	perms := map[string]any{"decision": map[string]any{"updatedPermissions": []any{"r"}}, "other": 1}
	o := Fold(perm, nil, []HookReport{claudeRep(withHS(block("nope"), interrupt)), claudeRep(withHS(allow(""), perms))})
	if want := map[string]any{"decision": map[string]any{"interrupt": true}, "other": 1}; !reflect.DeepEqual(o.HookSpecific, want) {
		t.Errorf("deny wins: hook_specific %v, want %v", o.HookSpecific, want)
	}
	o = Fold(perm, nil, []HookReport{claudeRep(withHS(allow(""), perms)), claudeRep(allow(""))})
	if want := map[string]any{"decision": map[string]any{"updatedPermissions": []any{"r"}}, "other": 1}; !reflect.DeepEqual(o.HookSpecific, want) {
		t.Errorf("allow wins: hook_specific %v, want %v", o.HookSpecific, want)
	}
	o = Fold(perm, nil, []HookReport{claudeRep(withHS(block("a"), interrupt)),
		claudeRep(withHS(block("b"), map[string]any{"decision": map[string]any{"x": 2}}))})
	if want := map[string]any{"decision": map[string]any{"interrupt": true, "x": 2}}; !reflect.DeepEqual(o.HookSpecific, want) {
		t.Errorf("two denies: hook_specific %v, want %v", o.HookSpecific, want)
	}
}

// Rule 8 with the replacement's own form (a Claude hook's updatedToolOutput
// as it wrote it): it goes with the result it is the form of, never with a
// later hook's text.
func TestFoldResultFormFollowsTheResult(t *testing.T) {
	post := ev("PostToolUse")
	obj := map[string]any{"a": 1}
	structured := &Contribution{Result: ptr(`{"a":1}`), HookSpecific: map[string]any{"updatedToolOutput": obj}}
	o := Fold(post, nil, []HookReport{claudeRep(structured)})
	if !reflect.DeepEqual(o.HookSpecific, map[string]any{"updatedToolOutput": obj}) || *o.Result != `{"a":1}` {
		t.Errorf("alone: %v %v", o.HookSpecific, o.Result)
	}
	o = Fold(post, nil, []HookReport{claudeRep(structured), rep(&Contribution{Result: ptr("text")})})
	if o.HookSpecific != nil || *o.Result != "text" {
		t.Errorf("a later text wins: hook_specific %v result %q", o.HookSpecific, *o.Result)
	}
}

// terminalSequence: one hook's sequence, the last in config order (two
// joined could make a text Claude Code's allow-list refuses).
func TestFoldTerminalSequence(t *testing.T) {
	o := Fold(ev("Notification"), nil, []HookReport{claudeRep(&Contribution{TerminalSequence: "\x1b]0;a\x07"}),
		claudeRep(&Contribution{SystemMessage: "x"}), claudeRep(&Contribution{TerminalSequence: "\x07"})})
	if o.TerminalSequence != "\x07" {
		t.Errorf("terminal sequence %q", o.TerminalSequence)
	}
}

// An agent that joins every refusing hook's reason (Gemini CLI: a line
// apart; its codec says so in ReasonJoin) gets them all, not the first.
func TestFoldReasonJoin(t *testing.T) {
	b := func(m string) *Contribution {
		c := block(m)
		c.ReasonJoin = "\n"
		return c
	}
	o := Fold(preTool, nil, reps(b("r1"), b("r2")))
	if o.Decision != DecisionBlock || o.Message != "r1\nr2" {
		t.Errorf("got %s %q, want block \"r1\\nr2\"", o.Decision, o.Message)
	}
}
