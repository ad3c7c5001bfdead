package protocol

import (
	"encoding/json"
	"testing"
)

func BenchmarkParseReplyHermesBlock(b *testing.B) {
	r := Reply{Dialect: Hermes, Event: ev("pre_tool_call"), Command: "/hooks/guard.sh",
		Stdout: []byte(`{"action":"block","message":"rm -rf is not permitted"}` + "\n")}
	b.ReportAllocs()
	for b.Loop() {
		if c, _ := ParseReply(r); c == nil || c.Decision != DecisionBlock {
			b.Fatal("no block")
		}
	}
}

func BenchmarkParseReplyEmpty(b *testing.B) {
	r := Reply{Dialect: Hermes, Event: ev("pre_tool_call"), Command: "/hooks/nop"}
	b.ReportAllocs()
	for b.Loop() {
		if c, _ := ParseReply(r); c != nil {
			b.Fatal("contribution from empty stdout")
		}
	}
}

func BenchmarkFold8(b *testing.B) {
	original := map[string]any{"command": "ls", "timeout": json.Number("30")}
	reports := reps(
		nil,
		modify(map[string]any{"command": "ls -la"}),
		&Contribution{Context: "repo is clean"},
		ask("touches .env", "terminal:env"),
		&Contribution{SystemMessage: "heads up"},
		nil,
		block("rm -rf is not permitted"),
		&Contribution{Context: "second piece", Stop: true, StopReason: "budget"},
	)
	b.ReportAllocs()
	for b.Loop() {
		if o := Fold(preTool, original, reports); o.Decision != DecisionBlock {
			b.Fatal("no block")
		}
	}
}

var benchFields = map[string]any{
	"tool_name": "terminal", "args": map[string]any{"command": "ls -la /tmp", "timeout": json.Number("30")},
	"session_id": "sess-1", "task_id": "t-1", "tool_call_id": "c-1", "turn_id": "turn-9",
	"api_request_id": "req-3", "middleware_trace": []any{},
}

func BenchmarkHermesPayload(b *testing.B) {
	e := ev("pre_tool_call")
	env := PayloadEnv{Cwd: "/home/u/project"}
	b.ReportAllocs()
	for b.Loop() {
		if p := BuildPayload(Hermes, e, benchFields, env); len(p) == 0 {
			b.Fatal("empty payload")
		}
	}
}

func BenchmarkClaudePayload(b *testing.B) {
	e := ev("pre_tool_call")
	env := PayloadEnv{Cwd: "/home/u/project"}
	b.ReportAllocs()
	for b.Loop() {
		if p := BuildPayload(Claude, e, benchFields, env); len(p) == 0 {
			b.Fatal("empty payload")
		}
	}
}
