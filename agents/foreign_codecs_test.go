package agents

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// The Windsurf and Cline codecs: what a hook of those agents' own files,
// run by hermes-hooks under any agent, is sent and how its reply reads.

func decodeFields(t testing.TB, s string) map[string]any {
	t.Helper()
	v, err := pyjson.Decode([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v.(map[string]any)
}

// TestForeignPayload: byte for byte, for a Hermes host's fields; and the
// payload decodes back to the same event.
func TestForeignPayload(t *testing.T) {
	env := protocol.PayloadEnv{Cwd: "/w"}
	for _, tc := range []struct {
		agent    *Agent
		codec    protocol.Codec
		declared string
		fields   string
		want     string
	}{
		{windsurf, windsurfCodec{}, "pre_run_command", `{"tool_name":"terminal","args":{"command":"rm -rf /"},"session_id":"s1","turn_id":"x1"}`,
			`{"agent_action_name":"pre_run_command","trajectory_id":"s1","execution_id":"x1","tool_info":{"command_line":"rm -rf /","cwd":"/w"}}`},
		{windsurf, windsurfCodec{}, "pre_read_code", `{"tool_name":"read_file","args":{"path":"a.go"},"session_id":"s1","timestamp":"T"}`,
			`{"agent_action_name":"pre_read_code","trajectory_id":"s1","execution_id":"","timestamp":"T","tool_info":{"file_path":"a.go"}}`},
		{windsurf, windsurfCodec{}, "pre_write_code", `{"tool_name":"patch","args":{"path":"a.go","old_string":"a","new_string":"b"},"session_id":"s1"}`,
			`{"agent_action_name":"pre_write_code","trajectory_id":"s1","execution_id":"","tool_info":{"file_path":"a.go","edits":[{"old_string":"a","new_string":"b"}]}}`},
		{windsurf, windsurfCodec{}, "post_mcp_tool_use", `{"tool_name":"mcp_github_create_issue","args":{"title":"x"},"result":"ok","session_id":"s1"}`,
			`{"agent_action_name":"post_mcp_tool_use","trajectory_id":"s1","execution_id":"","tool_info":{"mcp_result":"ok","mcp_server_name":"github","mcp_tool_arguments":{"title":"x"},"mcp_tool_name":"create_issue"}}`},
		{windsurf, windsurfCodec{}, "pre_user_prompt", `{"user_message":"deploy it","session_id":"s1"}`,
			`{"agent_action_name":"pre_user_prompt","trajectory_id":"s1","execution_id":"","tool_info":{"user_prompt":"deploy it"}}`},
		{windsurf, windsurfCodec{}, "post_cascade_response", `{"final_response":"done","session_id":"s1"}`,
			`{"agent_action_name":"post_cascade_response","trajectory_id":"s1","execution_id":"","tool_info":{"response":"done"}}`},
		{cline, clineCodec{}, "PreToolUse", `{"tool_name":"terminal","args":{"command":"ls"},"session_id":"s1","cwd":"/p","model":"m"}`,
			`{"clineVersion":"","hookName":"PreToolUse","timestamp":"","taskId":"s1","workspaceRoots":["/p"],"userId":"","model":{"provider":"","slug":"m"},"preToolUse":{"toolName":"execute_command","parameters":{"command":"ls"}}}`},
		{cline, clineCodec{}, "PostToolUse", `{"tool_name":"read_file","args":{"path":"a.go"},"result":{"n":1},"session_id":"s1"}`,
			`{"clineVersion":"","hookName":"PostToolUse","timestamp":"","taskId":"s1","workspaceRoots":["/w"],"userId":"","postToolUse":{"toolName":"read_file","parameters":{"path":"a.go"},"result":"{\"n\":1}","success":true,"executionTimeMs":0}}`},
		{cline, clineCodec{}, "UserPromptSubmit", `{"user_message":"deploy it","session_id":"s1"}`,
			`{"clineVersion":"","hookName":"UserPromptSubmit","timestamp":"","taskId":"s1","workspaceRoots":["/w"],"userId":"","userPromptSubmit":{"prompt":"deploy it","attachments":[]}}`},
		{cline, clineCodec{}, "TaskCancel", `{"session_id":"s1","interrupted":true}`,
			`{"clineVersion":"","hookName":"TaskCancel","timestamp":"","taskId":"s1","workspaceRoots":["/w"],"userId":"","taskCancel":{"taskMetadata":{"taskId":"s1","completionStatus":"cancelled"}}}`},
		{cline, clineCodec{}, "PreCompact", `{"session_id":"s1","trigger":"manual"}`,
			`{"clineVersion":"","hookName":"PreCompact","timestamp":"","taskId":"s1","workspaceRoots":["/w"],"userId":"","preCompact":{"taskId":"s1","compactionStrategy":"manual"}}`},
	} {
		t.Run(tc.agent.Name+" "+tc.declared, func(t *testing.T) {
			ev, _ := tc.agent.Canonical(tc.declared)
			got := string(tc.codec.Payload(tc.declared, ev, decodeFields(t, tc.fields), env))
			if got != tc.want {
				t.Errorf("payload\n got %s\nwant %s", got, tc.want)
			}
			c, err := tc.agent.Decode([]byte(got), "")
			if err != nil || c.Event != ev || c.AgentEvent != tc.declared {
				t.Errorf("the payload decodes to %+v, %v", c, err)
			}
		})
	}
}

// TestForeignParseReply: a hook's run read as its agent reads it.
func TestForeignParseReply(t *testing.T) {
	for _, tc := range []struct {
		codec                protocol.Codec
		agent                *Agent
		declared             string
		exit                 int
		stdout, stderr       string
		timedOut, failClosed bool
		decision             protocol.Decision
		message, context     string
		stop                 bool
		note                 string
	}{
		{codec: windsurfCodec{}, agent: windsurf, declared: "pre_run_command", exit: 2, stderr: "no rm\n", decision: protocol.DecisionBlock, message: "no rm"},
		{codec: windsurfCodec{}, agent: windsurf, declared: "pre_run_command", exit: 2, decision: protocol.DecisionBlock, message: protocol.ClaudeDefaultBlockReason},
		// stdout is the user's only; exit 0 allows.
		{codec: windsurfCodec{}, agent: windsurf, declared: "pre_read_code", stdout: `{"decision":"block"}`},
		{codec: windsurfCodec{}, agent: windsurf, declared: "pre_read_code", exit: 1, stderr: "boom\nmore", note: "hook exited with status 1: boom"},
		{codec: windsurfCodec{}, agent: windsurf, declared: "pre_read_code", exit: 1, failClosed: true, decision: protocol.DecisionBlock},
		{codec: windsurfCodec{}, agent: windsurf, declared: "pre_read_code", timedOut: true, note: "hook timed out"},
		// After an action, exit 2 has no effect.
		{codec: windsurfCodec{}, agent: windsurf, declared: "post_write_code", exit: 2, stderr: "lint failed", note: "exit code 2 has no effect on post_write_code"},
		{codec: windsurfCodec{}, agent: windsurf, declared: "post_cascade_response", exit: 2, stderr: "x", note: "exit code 2 has no effect on post_cascade_response"},
		{codec: windsurfCodec{}, agent: windsurf, declared: "pre_user_prompt", exit: 2, stderr: "not now", decision: protocol.DecisionBlock, message: "not now"},
		{codec: clineCodec{}, agent: cline, declared: "PreToolUse", stdout: `{"cancel":true,"errorMessage":"no"}`, decision: protocol.DecisionBlock, message: "no", stop: true},
		// JSON is read whatever the exit code, and after debug lines.
		{codec: clineCodec{}, agent: cline, declared: "PreToolUse", exit: 1, stdout: "debug\n{\"cancel\":true}", decision: protocol.DecisionBlock, message: "Hook requested task cancellation", stop: true},
		{codec: clineCodec{}, agent: cline, declared: "PostToolUse", stdout: `{"cancel":false,"contextModification":"see log"}`, context: "see log"},
		{codec: clineCodec{}, agent: cline, declared: "PostToolUse", stdout: `{"cancel":true,"errorMessage":"enough"}`, stop: true},
		{codec: clineCodec{}, agent: cline, declared: "TaskStart", stdout: `{"contextModification":"branch main"}`, context: "branch main"},
		{codec: clineCodec{}, agent: cline, declared: "TaskComplete", stdout: `{"cancel":true}`},
		{codec: clineCodec{}, agent: cline, declared: "PreToolUse", stdout: `{"cancel":"yes"}`, note: "hook reply ignored: cancel must be a boolean"},
		{codec: clineCodec{}, agent: cline, declared: "PreToolUse", stdout: `{"shouldContinue":false}`, note: "hook reply ignored: Cline no longer reads shouldContinue (use cancel)"},
		{codec: clineCodec{}, agent: cline, declared: "PreToolUse", stdout: `plain text`, note: "hook stdout holds no JSON object: plain text"},
		{codec: clineCodec{}, agent: cline, declared: "PreToolUse", exit: 3, stderr: "boom", note: "hook exited with status 3: boom"},
		{codec: clineCodec{}, agent: cline, declared: "PreToolUse", exit: 3, failClosed: true, decision: protocol.DecisionBlock},
	} {
		ev, _ := tc.agent.Canonical(tc.declared)
		c, note := parseReply(tc.codec, tc.declared, protocol.Reply{Event: ev, Command: "h", ExitCode: tc.exit,
			Stdout: []byte(tc.stdout), Stderr: []byte(tc.stderr), TimedOut: tc.timedOut, FailClosed: tc.failClosed})
		var got protocol.Contribution
		if c != nil {
			got = *c
		}
		name := tc.agent.Name + " " + tc.declared + " " + tc.stdout + tc.stderr
		if got.Decision != tc.decision || (tc.message != "" && got.Message != tc.message) || got.Context != tc.context || got.Stop != tc.stop {
			t.Errorf("%s: contribution %+v", name, got)
		}
		if tc.note != "" && note != tc.note {
			t.Errorf("%s: note %q, want %q", name, note, tc.note)
		}
	}
}

// TestForeignMatchSubject: a Windsurf hook sees only its kind of action,
// a Cline hook only its twin of a shared event.
func TestForeignMatchSubject(t *testing.T) {
	for _, tc := range []struct {
		codec    protocol.Codec
		declared string
		fields   string
		subject  string
		ok       bool
	}{
		{windsurfCodec{}, "pre_read_code", `{"tool_name":"read_file"}`, "read_code", true},
		{windsurfCodec{}, "pre_read_code", `{"tool_name":"terminal"}`, "run_command", true},
		{windsurfCodec{}, "pre_write_code", `{"tool_name":"Edit"}`, "write_code", true},
		{windsurfCodec{}, "pre_mcp_tool_use", `{"tool_name":"mcp__s__t"}`, "mcp_tool_use", true},
		{windsurfCodec{}, "pre_run_command", `{"tool_name":"web_search"}`, "", true},
		{windsurfCodec{}, "pre_user_prompt", `{}`, "", false},
		{clineCodec{}, "TaskStart", `{"source":"startup"}`, "TaskStart", true},
		{clineCodec{}, "TaskStart", `{"source":"resume"}`, "TaskResume", true},
		{clineCodec{}, "TaskComplete", `{"interrupted":true}`, "TaskCancel", true},
		{clineCodec{}, "TaskCancel", `{}`, "TaskComplete", true},
		{clineCodec{}, "PreToolUse", `{"tool_name":"x"}`, "", false},
	} {
		got, ok := tc.codec.MatchSubject(tc.declared, nil, decodeFields(t, tc.fields), nil)
		if got != tc.subject || ok != tc.ok {
			t.Errorf("%s %s: subject %q %v, want %q %v", tc.declared, tc.fields, got, ok, tc.subject, tc.ok)
		}
	}
}

// FuzzForeignPayload: any host fields give a payload that decodes back to
// the declared event.
func FuzzForeignPayload(f *testing.F) {
	f.Add("windsurf", "pre_write_code", `{"tool_name":"patch","args":{"edits":7}}`)
	f.Add("windsurf", "post_mcp_tool_use", `{"tool_name":"mcp_","result":[1]}`)
	f.Add("cline", "PostToolUse", `{"tool_name":"mcp_a_b","args":{"x":[1]},"result":null}`)
	f.Add("cline", "TaskResume", `{"model":3,"cwd":7}`)
	f.Fuzz(func(t *testing.T, agent, event, fields string) {
		codecs := map[string]protocol.Codec{"windsurf": windsurfCodec{}, "cline": clineCodec{}}
		a, _ := Lookup(agent)
		codec := codecs[agent]
		if codec == nil || a == nil {
			return
		}
		ev, ok := a.SourceEvent(event)
		v, err := pyjson.Decode([]byte(fields))
		m, isObj := v.(map[string]any)
		if !ok || err != nil || !isObj {
			return
		}
		out := codec.Payload(event, ev, m, protocol.PayloadEnv{Cwd: "/w"})
		c, err := a.Decode(out, "")
		if err != nil || c.AgentEvent != event {
			t.Fatalf("payload %s does not decode back to %s: %v", out, event, err)
		}
	})
}

// FuzzForeignParseReply: any run parses without panicking; a fail-closed
// hook that timed out on an event that refuses blocks.
func FuzzForeignParseReply(f *testing.F) {
	f.Add("windsurf", "pre_run_command", 2, "", "no", false)
	f.Add("cline", "PreToolUse", 0, "x\n{\"cancel\":true,\"errorMessage\":1}", "", false)
	f.Add("cline", "UserPromptSubmit", 1, "{", "err", true)
	f.Fuzz(func(t *testing.T, agent, event string, exit int, stdout, stderr string, timedOut bool) {
		codecs := map[string]protocol.Codec{"windsurf": windsurfCodec{}, "cline": clineCodec{}}
		a, _ := Lookup(agent)
		codec := codecs[agent]
		if codec == nil || a == nil {
			return
		}
		ev, ok := a.SourceEvent(event)
		if !ok {
			return
		}
		c, _ := parseReply(codec, event, protocol.Reply{Event: ev, Command: "h", ExitCode: exit,
			Stdout: []byte(stdout), Stderr: []byte(stderr), TimedOut: timedOut, FailClosed: true})
		refuses := ev.Can(protocol.CapBlock) && (agent == "windsurf" && strings.HasPrefix(event, "pre_") || agent == "cline" && clineRefuses(event))
		if timedOut && refuses && (c == nil || c.Decision != protocol.DecisionBlock) {
			t.Fatalf("a fail-closed %s hook timed out and contributed %+v", event, c)
		}
	})
}
