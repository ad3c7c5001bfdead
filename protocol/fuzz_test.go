package protocol

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// Fuzz targets for the reply parsers, the payload builders and DecodeJSON.
// The seed corpora are the table cases of the other test files; run one
// with, for example:
//
//	go test -run='^$' -fuzz='^FuzzParseReplyHermes$' -fuzztime=60s ./protocol/

var (
	fuzzValidatorOnce sync.Once
	fuzzValidator     *schemaValidator
)

func fuzzSchema(t *testing.T) *schemaValidator {
	fuzzValidatorOnce.Do(func() {
		sv, err := newSchemaValidator(OutcomeSchema)
		if err != nil {
			panic(err)
		}
		fuzzValidator = sv
	})
	return fuzzValidator
}

func eventAt(i uint8) *Event {
	all := Events()
	return all[int(i)%len(all)]
}

func eventIndex(name string) uint8 {
	e := ev(name)
	for i, x := range Events() {
		if x == e {
			return uint8(i)
		}
	}
	panic("unreachable")
}

func addReplySeeds(f *testing.F, cases ...[]replyCase) {
	for _, table := range cases {
		for _, tc := range table {
			f.Add(tc.stdout, tc.stderr, tc.exit, eventIndex(tc.event), tc.failClosed, tc.spawnErr != "", tc.timedOut)
		}
	}
}

// fuzzReply parses one arbitrary reply and checks what must hold for any
// input: no panic, nil rather than empty, a block always has a message,
// determinism, and the folded outcome is valid JSON that satisfies the
// published schema.
func fuzzReply(t *testing.T, d Dialect, stdout, stderr string, exit int, evIdx uint8, failClosed, spawn, timedOut bool) (*Contribution, *Event) {
	e := eventAt(evIdx)
	r := Reply{Dialect: d, Event: e, Command: "fuzz hook", ExitCode: exit, Stdout: []byte(stdout),
		Stderr: []byte(stderr), TimedOut: timedOut, Timeout: 60, FailClosed: failClosed}
	if spawn {
		// SpawnError is the OS error text the dispatcher hands over, and
		// ParseReply copies it into messages verbatim (unlike stdout and
		// stderr, which it repairs). The first fuzz run found exactly that
		// (testdata/fuzz/*/e31056a5098645cc, 9f1ab84353535ea4); the harness
		// now gives valid text, as the dispatcher does.
		r.SpawnError = "spawn: " + strings.ToValidUTF8(stderr, "\uFFFD")
	}
	c, note := ParseReply(r)
	checkContribution(t, c)
	c2, note2 := ParseReply(r)
	if !reflect.DeepEqual(c, c2) || note != note2 {
		t.Fatalf("ParseReply is not deterministic")
	}
	exitCode := &exit
	if spawn || timedOut {
		exitCode = nil
	}
	o := Fold(e, map[string]any{"command": "ls"}, []HookReport{{Event: e.Name, Command: "fuzz hook", Dialect: d,
		Ran: !spawn, ExitCode: exitCode, TimedOut: timedOut, Note: note, Contribution: c}})
	b, err := json.Marshal(o)
	if err != nil || !json.Valid(b) {
		t.Fatalf("outcome JSON invalid: %v %q", err, b)
	}
	if errs := fuzzSchema(t).validateJSON(b); len(errs) > 0 {
		t.Fatalf("outcome violates the schema: %v\n%s", errs, b)
	}
	w := pyjson.Encode(o.HermesWire(), pyjson.PythonASCII)
	if !json.Valid(w) {
		t.Fatalf("Hermes wire shape invalid: %q", w)
	}
	if o.Decision == DecisionBlock && o.Message == "" {
		t.Fatalf("blocked outcome without a message")
	}
	return c, e
}

func FuzzParseReplyHermes(f *testing.F) {
	addReplySeeds(f, hermesSectionA, hermesSectionH, hermesForeignCases)
	f.Add("{\"action\":\"block\",\"message\":\"\xff\xfe\"}", "\xff", 2, eventIndex("pre_tool_call"), true, false, false)
	for _, seed := range []struct{ stdout, event string }{
		{`{"action":"inject_system","value":"sys","state":{"k":1},"metadata":{"m":true}}`, "pre_llm_call"},
		{`{"action":"block","message":"no","context":"c"}`, "pre_llm_call"},
		{`{"action":"rewrite","value":{"a":1}}`, "transform_llm_output"},
		{`{"result":"new text"}`, "transform_tool_result"},
		{`{"action":"block","reason":"r"}`, "transform_user_input"},
		{`{"action":"rewrite","value":{"path":"/safe"}}`, "pre_tool_call"},
		{`{"state":{"x":null}}`, "pre_verify"},
		{`{"action":"skip","reason":"not the owner"}`, "pre_gateway_dispatch"},
		{`{"action":"rewrite","text":"new"}`, "pre_gateway_dispatch"},
		{`{"action":"allow"}`, "pre_gateway_dispatch"},
		{`{"context":"seen"}`, "command:*"},
	} {
		f.Add(seed.stdout, "", 0, eventIndex(seed.event), false, false, false)
	}
	f.Add(`{"decision":"block","decision":"approve"}`, "", 0, eventIndex("pre_tool_call"), true, false, false)
	f.Add(`{"action":"DENY"}`, "", 0, eventIndex("pre_tool_call"), true, false, false)
	f.Fuzz(func(t *testing.T, stdout, stderr string, exit int, evIdx uint8, failClosed, spawn, timedOut bool) {
		c, e := fuzzReply(t, Hermes, stdout, stderr, exit, evIdx, failClosed, spawn, timedOut)
		noDuplicateDecides(t, stdout, exit, spawn || timedOut, c)
		if c == nil {
			if e.FailsClosed() && failClosed && (spawn || timedOut) {
				t.Fatalf("fail_closed spawn error/timeout did not block")
			}
			if e.Gating() && exit == 2 && !spawn && !timedOut {
				t.Fatalf("exit 2 on pre_tool_call did not block")
			}
			return
		}
		// What a Hermes reply can ask for depends on the event's
		// capabilities; Claude-only fields never appear.
		if c.ReplaceArgs || c.Stop || c.StopReason != "" || c.SystemMessage != "" {
			t.Fatalf("Hermes dialect produced a Claude-only field: %s", contribString(c))
		}
		if c.Decision == DecisionAllow && e.HermesReply != ReplyGateway {
			t.Fatalf("allow on %s, where only pre_gateway_dispatch's allow is read: %s", e.Name, contribString(c))
		}
		if (c.Args != nil || c.Decision == DecisionAsk || c.RuleKey != "") && e.Name != "pre_tool_call" {
			t.Fatalf("modify/approve outside pre_tool_call (%s): %s", e.Name, contribString(c))
		}
		if c.Decision == DecisionBlock && !e.Can(CapBlock|CapContinue) {
			t.Fatalf("block on %s, which cannot block: %s", e.Name, contribString(c))
		}
		if c.Result != nil && !e.Can(CapTransform) {
			t.Fatalf("replacement text on %s, which cannot transform: %s", e.Name, contribString(c))
		}
		if c.Context != "" && (e.Name == "pre_tool_call" || e.Name == "pre_verify") {
			t.Fatalf("context on %s: %s", e.Name, contribString(c))
		}
		if (c.InjectSystem != "" || c.InjectUser != "") && e.Name != "pre_llm_call" {
			t.Fatalf("injection on %s: %s", e.Name, contribString(c))
		}
		if c.Decision == DecisionBlock && e.Gating() && exit == 2 && !spawn && !timedOut &&
			!strings.HasPrefix(strings.TrimSpace(stdout), "{") && len([]rune(c.Message)) > hermesStderrCut {
			t.Fatalf("exit-2 stderr message longer than %d characters", hermesStderrCut)
		}
	})
}

func FuzzParseReplyClaude(f *testing.F) {
	addReplySeeds(f, claudeCompatCases, claudeRuleCases, claudeForeignCases)
	f.Add(`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny"}}}`, "", 0,
		eventIndex("PermissionRequest"), false, false, false)
	f.Add(`{"decision":"block","decision":"approve"}`, "", 0, eventIndex("PreToolUse"), false, false, false)
	f.Fuzz(func(t *testing.T, stdout, stderr string, exit int, evIdx uint8, failClosed, spawn, timedOut bool) {
		c, e := fuzzReply(t, Claude, stdout, stderr, exit, evIdx, failClosed, spawn, timedOut)
		noDuplicateDecides(t, stdout, exit, spawn || timedOut, c)
		if !spawn && !timedOut && (exit == 2 && e.Exit2 == Exit2Blocks || exit != 0 && e.Exit2 == ExitNonZeroBlocks) &&
			(c == nil || c.Decision != DecisionBlock) {
			t.Fatalf("exit %d on %s did not block: %s", exit, e.ClaudeName(), contribString(c))
		}
		// fail_closed acts only where a hook can block at all.
		canBlock := e.Can(CapBlock | CapContinue)
		if failClosed && (spawn || timedOut) && canBlock && (c == nil || c.Decision != DecisionBlock) {
			t.Fatalf("fail-closed failure did not block")
		}
		if (spawn || timedOut) && !canBlock && c != nil {
			t.Fatalf("failure on %s, which cannot block, contributed %s", e.Name, contribString(c))
		}
		if c == nil {
			return
		}
		if c.Args != nil && !c.ReplaceArgs {
			t.Fatalf("Claude args must replace: %s", contribString(c))
		}
		if c.RuleKey != "" {
			t.Fatalf("Claude dialect produced a Hermes rule key: %s", contribString(c))
		}
	})
}

// fuzzFields turns arbitrary JSON into host fields: an object is used as
// is; anything else becomes the tool arguments.
func fuzzFields(data []byte) (map[string]any, bool) {
	v, err := pyjson.Decode(data)
	if err != nil {
		return nil, false
	}
	if m, ok := v.(map[string]any); ok {
		return m, true
	}
	return map[string]any{"tool_name": "terminal", "args": v}, true
}

func FuzzPayload(f *testing.F) {
	for _, g := range payloadGoldens {
		b, _ := json.Marshal(g.fields)
		if json.Valid(b) {
			f.Add(b, eventIndex(g.event))
		}
	}
	f.Add([]byte(`{"tool_name":"Bash","args":[1,2],"session_id":0,"parent_session_id":{"a":[]},"cwd":5,"profile":null}`), uint8(0))
	f.Add([]byte(`{"result":"{\"a\":","user_message":[{"text":1},{"text":"t"},7],"final_response":null,"file_path":"/a/b/"}`), eventIndex("FileChanged"))
	f.Add([]byte(`"just a string"`), eventIndex("pre_tool_call"))
	f.Fuzz(func(t *testing.T, data []byte, evIdx uint8) {
		fields, ok := fuzzFields(data)
		if !ok {
			return
		}
		e := eventAt(evIdx)
		env := PayloadEnv{Cwd: "/cwd", Profile: "p"}
		before := string(pyjson.Encode(fields, pyjson.Compact))

		h := BuildPayload(Hermes, e, fields, env)
		if !json.Valid(h) {
			t.Fatalf("Hermes payload is not valid JSON: %q", h)
		}
		if bytes.HasSuffix(h, []byte("\n")) {
			t.Fatalf("Hermes payload ends with a newline")
		}
		if keys := topLevelKeys(t, h); !reflect.DeepEqual(keys, hermesKeys) {
			t.Fatalf("Hermes keys = %v", keys)
		}
		hp := decodeObject(t, h)
		if _, leaked := hp["extra"].(map[string]any)["parent_session_id"]; leaked {
			t.Fatalf("parent_session_id in extra")
		}
		if ti := hp["tool_input"]; ti != nil {
			if _, isMap := ti.(map[string]any); !isMap {
				t.Fatalf("tool_input neither null nor an object: %#v", ti)
			}
		}

		c := BuildPayload(Claude, e, fields, env)
		if !json.Valid(c) {
			t.Fatalf("Claude payload is not valid JSON: %q", c)
		}
		if !bytes.HasSuffix(c, []byte("}\n")) || bytes.Count(c, []byte("\n")) != 1 {
			t.Fatalf("Claude payload framing: %q", c)
		}
		cp := decodeObject(t, c)
		if cp["hook_event_name"] != e.ClaudeName() {
			t.Fatalf("hook_event_name = %v, want %s", cp["hook_event_name"], e.ClaudeName())
		}
		ClaudeMatchQuery(e, fields, nil)
		if after := string(pyjson.Encode(fields, pyjson.Compact)); after != before {
			t.Fatalf("payload building modified the fields")
		}
	})
}

func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{`{}`, `[]`, `null`, `1.5e-3`, `"\u00e9\ud83d\ude00"`, `{"a":[1,{"b":null}]}`, `{} {}`,
		`{}]`, " \t\n{}\r\n", "\"\xff\"", `[1,2,3`, `{"a":1,"a":2}`, `-0`, `1e400`} {
		f.Add([]byte(s))
	}
	for _, tc := range append(append([]replyCase{}, hermesSectionA...), claudeRuleCases...) {
		f.Add([]byte(tc.stdout))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := pyjson.Decode(data)
		if (err == nil) != json.Valid(data) {
			t.Fatalf("DecodeJSON err=%v but json.Valid=%v for %q", err, json.Valid(data), data)
		}
		if err != nil {
			return
		}
		for _, style := range []pyjson.Style{pyjson.Compact, pyjson.Python, pyjson.PythonASCII} {
			b := pyjson.Encode(v, style)
			if !json.Valid(b) {
				t.Fatalf("style %d re-encoding invalid: %q", style, b)
			}
			back, err := pyjson.Decode(b)
			if err != nil {
				t.Fatalf("re-decoding %q: %v", b, err)
			}
			if !reflect.DeepEqual(back, v) {
				t.Fatalf("style %d round trip changed the value:\n%#v\n%#v", style, v, back)
			}
		}
	})
}

// noDuplicateDecides: a reply naming a member twice is read as no reply,
// in either dialect: what it contributes (unless exit 2 refuses, or the
// run failed) is nothing, or a fail_closed guard's refusal.
func noDuplicateDecides(t *testing.T, stdout string, exit int, failed bool, c *Contribution) {
	t.Helper()
	_, err := pyjson.DecodeUnique([]byte(strings.TrimSpace(toValidUTF8([]byte(stdout)))))
	if ambiguous(err) == "" || exit == 2 || failed || c == nil {
		return
	}
	if c.Decision != DecisionBlock || !strings.Contains(c.Message, "failed closed") {
		t.Fatalf("an ambiguous reply contributed %s", contribString(c))
	}
}
