package export

import (
	"strconv"
	"strings"
	"testing"
	"time"

	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// A journal line as the journal writes it: a rule decided, through an
// agent's hook call.
const blockLine = `{"seq":7,"prev":"ab12","time":"2026-12-02T09:45:36.367584034Z","version":"1.2.3","event":"pre_tool_call","session":"s1","tool":"terminal","agent":"claude","cwd":"/repo","decision":"block","message":"no rm -rf","stop":false,"payload_sha256":"64df","elapsed_ms":14.4,"hooks":[{"command":"audit.sh","dialect":"hermes","ran":true,"exit_code":0,"elapsed_ms":1,"timed_out":false,"decision":"none","script":"/h/audit.sh","sha256":"aaaa"},{"command":"rule: no-rm","dialect":"hermes","ran":true,"exit_code":0,"elapsed_ms":1,"timed_out":false,"decision":"block","script":"/h/guard.sh","sha256":"bbbb","rule":"no-rm","rule_sha256":"cccc"}]}`

const allowLine = `{"seq":8,"prev":"cd34","time":"2026-12-02T09:45:37Z","version":"1.2.3","event":"post_tool_call","decision":"none","stop":false,"payload_sha256":"00","elapsed_ms":1,"hooks":[]}`

var testRes = resource{service: "hermes-hooks", version: "1.2.3", host: "box"}

// wantAttrs are the attributes blockLine must carry, by key.
var wantAttrs = map[string]string{
	"session.id":                   "s1",
	"gen_ai.agent.name":            "claude",
	"gen_ai.tool.name":             "terminal",
	"process.working_directory":    "/repo",
	"hermes_hooks.event":           "pre_tool_call",
	"hermes_hooks.decision":        "block",
	"hermes_hooks.reason":          "no rm -rf",
	"hermes_hooks.journal.seq":     "7",
	"hermes_hooks.journal.prev":    "ab12",
	"hermes_hooks.payload.sha256":  "64df",
	"hermes_hooks.hook.command":    "rule: no-rm",
	"hermes_hooks.hook.script":     "/h/guard.sh",
	"hermes_hooks.hook.sha256":     "bbbb",
	"hermes_hooks.rule.id":         "no-rm",
	"hermes_hooks.rule.sha256":     "cccc",
	"hermes_hooks.hooks.command":   "audit.sh,rule: no-rm",
	"hermes_hooks.hooks.sha256":    "aaaa,bbbb",
	"hermes_hooks.hooks.timed_out": "false,false",
}

func flat(v *commonpb.AnyValue) string {
	switch x := v.GetValue().(type) {
	case *commonpb.AnyValue_StringValue:
		return x.StringValue
	case *commonpb.AnyValue_IntValue:
		return strconv.FormatInt(x.IntValue, 10)
	case *commonpb.AnyValue_BoolValue:
		if x.BoolValue {
			return "true"
		}
		return "false"
	case *commonpb.AnyValue_ArrayValue:
		var s []string
		for _, e := range x.ArrayValue.Values {
			s = append(s, flat(e))
		}
		return strings.Join(s, ",")
	}
	return "?"
}

// checkDecoded checks what the official OTLP bindings read back.
func checkDecoded(t *testing.T, ld *logspb.LogsData, observed time.Time) {
	t.Helper()
	if len(ld.ResourceLogs) != 1 || len(ld.ResourceLogs[0].ScopeLogs) != 1 {
		t.Fatalf("want one resource and one scope, got %v", ld)
	}
	rl := ld.ResourceLogs[0]
	res := map[string]string{}
	for _, kv := range rl.Resource.Attributes {
		res[kv.Key] = flat(kv.Value)
	}
	if res["service.name"] != "hermes-hooks" || res["service.version"] != "1.2.3" || res["host.name"] != "box" {
		t.Errorf("resource attributes %v", res)
	}
	sl := rl.ScopeLogs[0]
	if sl.Scope.Name != "hermes-hooks" || len(sl.LogRecords) != 2 {
		t.Fatalf("scope %v with %d records", sl.Scope, len(sl.LogRecords))
	}
	lr := sl.LogRecords[0]
	if lr.SeverityNumber != logspb.SeverityNumber_SEVERITY_NUMBER_WARN || lr.SeverityText != "WARN" {
		t.Errorf("severity %v %q, want WARN for a block", lr.SeverityNumber, lr.SeverityText)
	}
	if got := lr.Body.GetStringValue(); got != "block pre_tool_call terminal: no rm -rf" {
		t.Errorf("body %q", got)
	}
	if want := uint64(time.Date(2026, 12, 2, 9, 45, 36, 367584034, time.UTC).UnixNano()); lr.TimeUnixNano != want {
		t.Errorf("time %d, want %d", lr.TimeUnixNano, want)
	}
	if lr.ObservedTimeUnixNano != uint64(observed.UnixNano()) {
		t.Errorf("observed time %d", lr.ObservedTimeUnixNano)
	}
	if lr.EventName != EventName {
		t.Errorf("event name %q", lr.EventName)
	}
	got := map[string]string{}
	for _, kv := range lr.Attributes {
		got[kv.Key] = flat(kv.Value)
	}
	for k, v := range wantAttrs {
		if got[k] != v {
			t.Errorf("attribute %s = %q, want %q", k, got[k], v)
		}
	}
	if sl.LogRecords[1].SeverityNumber != logspb.SeverityNumber_SEVERITY_NUMBER_INFO {
		t.Errorf("an allow is INFO, got %v", sl.LogRecords[1].SeverityNumber)
	}
}

func testItems() []item { return []item{newItem([]byte(blockLine + "\n")), newItem([]byte(allowLine))} }

func TestOTLPProtobufDecodesWithTheOTLPBindings(t *testing.T) {
	observed := time.Unix(1800000000, 5)
	var ld logspb.LogsData
	if err := proto.Unmarshal(encodeProtobuf(testRes, testItems(), observed), &ld); err != nil {
		t.Fatal(err)
	}
	checkDecoded(t, &ld, observed)
}

func TestOTLPJSONDecodesWithTheOTLPBindings(t *testing.T) {
	observed := time.Unix(1800000000, 5)
	var ld logspb.LogsData
	if err := protojson.Unmarshal(encodeJSON(testRes, testItems(), observed), &ld); err != nil {
		t.Fatal(err)
	}
	checkDecoded(t, &ld, observed)
}

// The protobuf and JSON encodings are one message: re-encoding the
// decoded JSON as protobuf gives what the protobuf encoder wrote.
func TestOTLPEncodingsAgree(t *testing.T) {
	observed := time.Unix(1800000000, 5)
	var a, b logspb.LogsData
	if err := proto.Unmarshal(encodeProtobuf(testRes, testItems(), observed), &a); err != nil {
		t.Fatal(err)
	}
	if err := protojson.Unmarshal(encodeJSON(testRes, testItems(), observed), &b); err != nil {
		t.Fatal(err)
	}
	if !proto.Equal(&a, &b) {
		t.Errorf("protobuf and JSON differ:\n%v\n%v", &a, &b)
	}
}

// Any journal line, however odd (invalid UTF-8, huge numbers, not JSON),
// encodes to a message the bindings read.
func FuzzOTLPEncode(f *testing.F) {
	f.Add([]byte(blockLine))
	f.Add([]byte(allowLine))
	f.Add([]byte(`{"message":"\xff\xfe","seq":-1,"hooks":[{"rule":"\u0000"}]}`))
	f.Add([]byte(`not json`))
	f.Fuzz(func(t *testing.T, line []byte) {
		items := []item{newItem(line)}
		var ld logspb.LogsData
		if err := proto.Unmarshal(encodeProtobuf(testRes, items, time.Now()), &ld); err != nil {
			t.Fatalf("protobuf: %v", err)
		}
		if err := protojson.Unmarshal(encodeJSON(testRes, items, time.Now()), &ld); err != nil {
			t.Fatalf("json: %v", err)
		}
	})
}

// A record's agent is the journal's called-by list; what is exported as
// the agent (gen_ai.agent.name, syslog's agent=) is the one that called.
func TestExportedAgentIsTheCaller(t *testing.T) {
	for calledBy, want := range map[string]string{
		"claude": "claude", "copilot,claude": "copilot", "(elsewhere),codex": "codex", "(elsewhere)": "", "": "", ",gemini": "gemini",
	} {
		it := newItem([]byte(`{"seq":1,"event":"pre_tool_call","agent":"` + calledBy + `","decision":"none"}`))
		if !it.ok || it.rec.Agent != want {
			t.Errorf("agent %q exported as %q, want %q", calledBy, it.rec.Agent, want)
		}
	}
}

// A record of megabytes (a payload's tool name and session id, a hook's
// message) is exported with each text bounded: one such record made the
// batch's request megabytes long, which a collector refuses whole (413,
// a final answer), so the batch's other records were lost with it.
func TestOTLPBoundsEachText(t *testing.T) {
	big := strings.Repeat("t", 4<<20)
	line := strings.Replace(blockLine, `"tool":"terminal"`, `"tool":"`+big+`"`, 1)
	line = strings.Replace(line, `"session":"s1"`, `"session":"`+big+`"`, 1)
	line = strings.Replace(line, `"message":"no rm -rf"`, `"message":"`+big+`"`, 1)
	line = strings.Replace(line, `"command":"audit.sh"`, `"command":"`+big+`"`, 1)
	items := []item{newItem([]byte(line)), newItem([]byte(allowLine))}
	if n := len(encodeProtobuf(testRes, items, time.Now())); n > 64<<10 {
		t.Errorf("protobuf request of %d bytes", n)
	}
	if n := len(encodeJSON(testRes, items, time.Now())); n > 64<<10 {
		t.Errorf("JSON request of %d bytes", n)
	}
}

// Which hooks of a firing timed out is a list beside hooks.command, read
// from each journal hook's timed_out: a command killed at its timeout and
// a rule past its time bound alike, whether or not it decided.
func TestOTLPHooksTimedOut(t *testing.T) {
	const (
		cmdLate  = `{"command":"slow.sh","ran":true,"exit_code":null,"timed_out":true,"decision":"none"}`
		ruleLate = `{"command":"rule: args.command matches \"rm\"","ran":false,"exit_code":null,"timed_out":true,"error":"rule evaluation stopped: rule evaluation passed its time bound","decision":"block","rule":"no-rm"}`
		ruleOK   = `{"command":"rule: tool == \"terminal\"","ran":true,"exit_code":null,"timed_out":false,"decision":"none","rule":"terminal"}`
	)
	for _, tc := range []struct{ name, hooks, decision, want string }{
		{"a command", cmdLate + "," + ruleOK, "none", "true,false"},
		{"a rule that decided", ruleOK + "," + ruleLate, "block", "false,true"},
		{"none", ruleOK, "none", "false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			line := `{"seq":1,"event":"pre_tool_call","session":"s","decision":"` + tc.decision + `","hooks":[` + tc.hooks + `]}`
			it := newItem([]byte(line))
			if !it.ok {
				t.Fatalf("unreadable line %s", line)
			}
			var pb, js logspb.LogsData
			if err := proto.Unmarshal(encodeProtobuf(testRes, []item{it}, time.Now()), &pb); err != nil {
				t.Fatal(err)
			}
			if err := protojson.Unmarshal(encodeJSON(testRes, []item{it}, time.Now()), &js); err != nil {
				t.Fatal(err)
			}
			for enc, ld := range map[string]*logspb.LogsData{"protobuf": &pb, "JSON": &js} {
				got := "(absent)"
				for _, kv := range ld.ResourceLogs[0].ScopeLogs[0].LogRecords[0].Attributes {
					if kv.Key == "hermes_hooks.hooks.timed_out" {
						if _, ok := kv.Value.GetValue().(*commonpb.AnyValue_ArrayValue); !ok {
							t.Errorf("%s: not a list: %v", enc, kv.Value)
						}
						got = flat(kv.Value)
					}
				}
				if got != tc.want {
					t.Errorf("%s: hermes_hooks.hooks.timed_out = %s, want %s", enc, got, tc.want)
				}
			}
		})
	}
}
