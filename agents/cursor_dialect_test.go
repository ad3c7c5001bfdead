package agents

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

func ev(t testing.TB, name string) *protocol.Event {
	t.Helper()
	e, ok := protocol.Lookup(name)
	if !ok {
		t.Fatalf("no event %s", name)
	}
	return e
}

// TestParseCursorReply: what a Cursor hook's reply contributes, per Cursor
// event (one row per rule of cursorCodec.ReadReply).
func TestParseCursorReply(t *testing.T) {
	block := func(m string) *protocol.Contribution {
		return &protocol.Contribution{Decision: protocol.DecisionBlock, Message: m}
	}
	for _, tc := range []struct {
		name, event, canon string
		exit               int
		stdout, stderr     string
		failClosed         bool
		timedOut           bool
		want               *protocol.Contribution
		note               string
	}{
		{name: "deny agent_message", event: "beforeShellExecution", canon: "pre_tool_call",
			stdout: `{"permission":"deny","user_message":"u","agent_message":"a"}`, want: block("a")},
		{name: "deny user_message", event: "preToolUse", canon: "pre_tool_call",
			stdout: `{"permission":"deny","user_message":"u"}`, want: block("u")},
		{name: "deny bare", event: "beforeReadFile", canon: "pre_tool_call",
			stdout: `{"permission":"deny"}`, want: block(protocol.ClaudeDefaultBlockReason)},
		{name: "ask", event: "preToolUse", canon: "pre_tool_call",
			stdout: `{"permission":"ask","user_message":"sure?"}`, want: &protocol.Contribution{Decision: protocol.DecisionAsk, Message: "sure?"}},
		{name: "allow", event: "beforeMCPExecution", canon: "pre_tool_call",
			stdout: `{"permission":"allow"}`, want: &protocol.Contribution{Decision: protocol.DecisionAllow}},
		{name: "bad permission", event: "preToolUse", canon: "pre_tool_call",
			stdout: `{"permission":"maybe"}`, note: "permission must be"},
		{name: "bad permission fail closed", event: "preToolUse", canon: "pre_tool_call", failClosed: true,
			stdout: `{"permission":"maybe"}`, want: block(`hook g failed closed: unreadable reply: permission must be "allow", "deny" or "ask"`)},
		{name: "updated_input", event: "preToolUse", canon: "pre_tool_call",
			stdout: `{"updated_input":{"command":"ls"}}`, want: &protocol.Contribution{Args: map[string]any{"command": "ls"}, ReplaceArgs: true}},
		{name: "updated_input not read on beforeShellExecution", event: "beforeShellExecution", canon: "pre_tool_call",
			stdout: `{"updated_input":{"command":"ls"}}`, note: "updated_input has no effect on beforeShellExecution"},
		{name: "prompt refused", event: "beforeSubmitPrompt", canon: "pre_llm_call",
			stdout: `{"continue":false,"user_message":"not that"}`, want: block("not that")},
		{name: "prompt continues", event: "beforeSubmitPrompt", canon: "pre_llm_call",
			stdout: `{"continue":true}`},
		{name: "followup keeps going", event: "stop", canon: "pre_verify",
			stdout: `{"followup_message":"run the tests"}`, want: block("run the tests")},
		{name: "context", event: "postToolUse", canon: "post_tool_call",
			stdout: `{"additional_context":"note"}`, want: &protocol.Contribution{Context: "note"}},
		{name: "session context and env", event: "sessionStart", canon: "on_session_start",
			stdout: `{"additional_context":"hi","env":{"A":"1","B":2}}`, want: &protocol.Contribution{Context: "hi", Env: map[string]string{"A": "1"}}},
		{name: "permission ignored on stop", event: "stop", canon: "pre_verify",
			stdout: `{"permission":"deny"}`, note: "permission has no effect on stop"},
		{name: "exit 2 denies with stderr", event: "beforeShellExecution", canon: "pre_tool_call",
			exit: 2, stderr: "no\n", want: block("no")},
		{name: "exit 2 denies with agent_message", event: "preToolUse", canon: "pre_tool_call",
			exit: 2, stdout: `{"agent_message":"why"}`, want: block("why")},
		{name: "exit 2 refuses a prompt", event: "beforeSubmitPrompt", canon: "pre_llm_call",
			exit: 2, want: block(protocol.ClaudeDefaultBlockReason)},
		{name: "exit 2 on an observer", event: "afterFileEdit", canon: "post_tool_call",
			exit: 2, note: "exit code 2 has no effect on afterFileEdit"},
		{name: "exit 1 fails open", event: "preToolUse", canon: "pre_tool_call",
			exit: 1, stderr: "boom", stdout: `{"permission":"deny"}`, note: "hook exited with status 1: boom"},
		{name: "exit 1 fail closed", event: "preToolUse", canon: "pre_tool_call", failClosed: true,
			exit: 1, want: block("hook g failed closed: exited with status 1")},
		{name: "fail closed not on stop", event: "stop", canon: "pre_verify", failClosed: true,
			exit: 1, note: "hook exited with status 1"},
		{name: "not JSON", event: "preToolUse", canon: "pre_tool_call",
			stdout: `allow`, note: "hook stdout is not a JSON object: allow"},
		{name: "not JSON fail closed", event: "preToolUse", canon: "pre_tool_call", failClosed: true,
			stdout: `allow`, want: block("hook g failed closed: unparseable stdout (expected a JSON object)")},
		{name: "timeout fail closed", event: "preToolUse", canon: "pre_tool_call", failClosed: true, timedOut: true,
			want: block("hook g failed closed: timed out after 5s")},
		{name: "empty", event: "preToolUse", canon: "pre_tool_call"},
		// A member named twice: neither value is taken.
		{name: "duplicate permission", event: "preToolUse", canon: "pre_tool_call",
			stdout: `{"permission":"deny","permission":"allow"}`, note: `hook stdout is ambiguous: "permission" appears twice`},
		{name: "duplicate permission fail closed", event: "preToolUse", canon: "pre_tool_call", failClosed: true, exit: 1,
			stdout: `{"permission":"deny","permission":"allow"}`, want: block(`hook g failed closed: ambiguous stdout: "permission" appears twice`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, note := parseReply(cursorCodec{}, tc.event, protocol.Reply{
				Dialect: cursorDialect, Event: ev(t, tc.canon), Command: "g", ExitCode: tc.exit,
				Stdout: []byte(tc.stdout), Stderr: []byte(tc.stderr), FailClosed: tc.failClosed,
				TimedOut: tc.timedOut, Timeout: 5,
			})
			if !reflect.DeepEqual(c, tc.want) {
				t.Errorf("contribution = %+v, want %+v", c, tc.want)
			}
			if !strings.Contains(note, tc.note) {
				t.Errorf("note = %q, want it to contain %q", note, tc.note)
			}
		})
	}
}

// TestCursorPayload: a Cursor hook reads what Cursor would send for its
// event, from a Hermes host's fields; decoding it back gives those fields.
func TestCursorPayload(t *testing.T) {
	env := protocol.PayloadEnv{Cwd: "/w", Tools: protocol.DefaultTools()}
	for _, tc := range []struct {
		name, event, canon string
		fields             map[string]any
		want               []string // fragments of the encoded payload
	}{
		{"shell", "beforeShellExecution", "pre_tool_call",
			map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "rm -rf /"}, "session_id": "s"},
			[]string{`{"hook_event_name":"beforeShellExecution","conversation_id":"s","workspace_roots":["/w"],"command":"rm -rf /"`, `"cwd":"/w"`}},
		{"preToolUse from Claude names", "preToolUse", "pre_tool_call",
			map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "ls"}},
			[]string{`"tool_name":"Shell","tool_input":{"command":"ls"}`}},
		{"read", "beforeReadFile", "pre_tool_call",
			map[string]any{"tool_name": "read_file", "args": map[string]any{"path": "/etc/hosts"}},
			[]string{`"file_path":"/etc/hosts"`}},
		{"mcp input as text", "beforeMCPExecution", "pre_tool_call",
			map[string]any{"tool_name": "mcp__db__query", "args": map[string]any{"q": 1}},
			[]string{`"tool_name":"mcp__db__query","tool_input":"{\"q\":1}"`}},
		{"post tool output", "postToolUse", "post_tool_call",
			map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}, "result": "a b"},
			[]string{`"tool_name":"Shell"`, `"tool_output":"a b"`}},
		{"edit", "afterFileEdit", "post_tool_call",
			map[string]any{"tool_name": "patch", "args": map[string]any{"path": "f", "old_string": "a", "new_string": "b"}},
			[]string{`"file_path":"f","edits":[{"new_string":"b","old_string":"a"}]`}},
		{"prompt", "beforeSubmitPrompt", "pre_llm_call",
			map[string]any{"user_message": "hi"},
			[]string{`"prompt":"hi"`}},
		{"stop", "stop", "pre_verify",
			map[string]any{"stop_hook_active": true},
			[]string{`"status":"completed","loop_count":1`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := string(cursorCodec{}.Payload(tc.event, ev(t, tc.canon), tc.fields, env))
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("payload %s\nlacks %s", got, w)
				}
			}
			// The inverse: what hook cursor would decode from it.
			c, err := cursor.Decode([]byte(got), "")
			if err != nil || c.Event == nil || c.Event.Name != tc.canon {
				t.Fatalf("decode back: %v, %+v", err, c)
			}
		})
	}
}

// TestCursorFits: which firings of pre_tool_call / post_tool_call each
// Cursor event stands for.
func TestCursorFits(t *testing.T) {
	tools := protocol.DefaultTools()
	for _, tc := range []struct {
		event, tool string
		want        bool
	}{
		{"beforeShellExecution", "terminal", true}, {"beforeShellExecution", "Bash", true},
		{"beforeShellExecution", "read_file", false}, {"beforeReadFile", "read_file", true},
		{"beforeReadFile", "Read", true}, {"beforeReadFile", "terminal", false},
		{"afterFileEdit", "patch", true}, {"afterFileEdit", "write_file", true}, {"afterFileEdit", "terminal", false},
		{"beforeMCPExecution", "mcp__db__q", true}, {"beforeMCPExecution", "terminal", false},
		{"preToolUse", "terminal", true}, {"preToolUse", "anything", true}, {"stop", "", true},
	} {
		if got := (cursorCodec{}).Covers(tc.event, map[string]any{"tool_name": tc.tool}, tools); got != tc.want {
			t.Errorf("Covers(%s, %s) = %v, want %v", tc.event, tc.tool, got, tc.want)
		}
	}
}

// FuzzCursorPayload: any host fields give a JSON object for every Cursor
// event, which decodes back to that event.
func FuzzCursorPayload(f *testing.F) {
	f.Add("beforeShellExecution", `{"tool_name":"terminal","args":{"command":"ls"}}`)
	f.Add("afterFileEdit", `{"tool_name":"patch","args":{"path":"f","edits":7}}`)
	f.Add("stop", `{"loop_count":"x","status":null}`)
	f.Add("beforeSubmitPrompt", `{"user_message":[{"text":"a"},"b"]}`)
	f.Fuzz(func(t *testing.T, event, fields string) {
		canon, ok := cursor.Events[event]
		if !ok {
			return
		}
		v, err := pyjson.Decode([]byte(fields))
		m, isObj := v.(map[string]any)
		if err != nil || !isObj {
			return
		}
		e, _ := protocol.Lookup(canon)
		out := cursorCodec{}.Payload(event, e, m, protocol.PayloadEnv{Cwd: "/w"})
		c, err := cursor.Decode(out, "")
		if err != nil || c.AgentEvent != event {
			t.Fatalf("payload %s does not decode back to %s: %v", out, event, err)
		}
	})
}

// FuzzParseCursorReply: any reply parses without panicking; a fail-closed
// hook on an event it can refuse that fails never contributes less than a
// block.
func FuzzParseCursorReply(f *testing.F) {
	f.Add("preToolUse", 0, `{"permission":"deny","agent_message":"x"}`, "", true)
	f.Add("beforeSubmitPrompt", 2, `{"continue":"no"}`, "why", false)
	f.Add("stop", 0, `{"followup_message":"go on"}`, "", true)
	f.Add("sessionStart", 0, `{"env":{"A":[1]},"additional_context":3}`, "", false)
	f.Fuzz(func(t *testing.T, event string, exit int, stdout, stderr string, failClosed bool) {
		canon, ok := cursor.Events[event]
		if !ok {
			return
		}
		e, _ := protocol.Lookup(canon)
		c, _ := parseReply(cursorCodec{}, event, protocol.Reply{Dialect: cursorDialect, Event: e, Command: "g",
			ExitCode: exit, Stdout: []byte(stdout), Stderr: []byte(stderr), FailClosed: failClosed})
		if failClosed && cursorRefuses(event) && exit != 0 && exit != 2 && (c == nil || c.Decision != protocol.DecisionBlock) {
			t.Fatalf("fail-closed %s exiting %d contributed %+v", event, exit, c)
		}
	})
}
