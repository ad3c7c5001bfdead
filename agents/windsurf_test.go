package agents

import (
	"slices"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// windsurfBase is the start of every Cascade hook payload (docs.windsurf.com
// "Cascade Hooks", "Common Input Structure"): the action, the trajectory
// (conversation) and execution (turn) ids, a timestamp.
func windsurfBase(event string) string {
	return `{"agent_action_name":"` + event + `","trajectory_id":"t1","execution_id":"x1","timestamp":"2026-11-25T10:00:00Z"`
}

func TestWindsurfGolden(t *testing.T) {
	read := windsurfBase("pre_read_code") + `,"tool_info":{"file_path":"/p/.env"}}`
	write := windsurfBase("pre_write_code") + `,"tool_info":{"file_path":"/p/a.go","edits":[{"old_string":"a","new_string":"b"}]}}`
	run := windsurfBase("pre_run_command") + `,"tool_info":{"command_line":"rm -rf /","cwd":"/p"}}`
	mcp := windsurfBase("pre_mcp_tool_use") + `,"tool_info":{"mcp_server_name":"github","mcp_tool_name":"create_issue","mcp_tool_arguments":{"title":"x"}}}`
	prompt := windsurfBase("pre_user_prompt") + `,"tool_info":{"user_prompt":"deploy it"}}`
	postRun := windsurfBase("post_run_command") + `,"tool_info":{"command_line":"make test","cwd":"/p"}}`
	blocked := protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no secrets"}
	runWireCases(t, windsurf, []wireCase{
		{
			name: "read block", payload: read, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "read_file", "args": map[string]any{"path": "/p/.env"}, "session_id": "t1", "turn_id": "x1"},
			outcome: blocked, exit: 2, stderr: "no secrets\n",
		},
		{
			name: "read allow", payload: read, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAllow, Message: "fine", SystemMessage: "checked"},
		},
		{
			// Cascade cannot ask: the call is refused with the question.
			name: "ask refuses", payload: read, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?"}, exit: 2,
			stderr: "sure? (hermes-hooks: Windsurf cannot ask from a hook; this call is refused)\n",
		},
		{
			name: "block without a message", payload: read, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock}, exit: 2, stderr: protocol.ClaudeDefaultBlockReason + "\n",
		},
		{
			name: "write block", payload: write, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "patch", "args": map[string]any{"path": "/p/a.go", "edits": []any{map[string]any{"old_string": "a", "new_string": "b"}}}},
			outcome: blocked, exit: 2, stderr: "no secrets\n",
		},
		{
			name: "command block", payload: run, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "rm -rf /"}, "cwd": "/p"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no rm -rf"}, exit: 2, stderr: "no rm -rf\n",
		},
		{
			// Windsurf runs the call as announced or not at all.
			name: "command rewrite refuses with the new arguments", payload: run, canon: "pre_tool_call",
			outcome: protocol.Outcome{Args: map[string]any{"command": "rm -ri /tmp/x"}}, exit: 2,
			stderr: `hermes-hooks: a hook rewrote this call, and Windsurf cannot run rewritten arguments; it is refused. Retry with: {"command":"rm -ri /tmp/x"}` + "\n",
		},
		{
			// No channel for context before a call.
			name: "context before a call is dropped", payload: run, canon: "pre_tool_call",
			outcome: protocol.Outcome{Context: "careful"},
		},
		{
			name: "stop", payload: run, canon: "pre_tool_call",
			outcome: protocol.Outcome{Stop: true, StopReason: "budget spent"}, exit: 2, stderr: "budget spent\n",
		},
		{
			name: "mcp block", payload: mcp, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "mcp__github__create_issue", "args": map[string]any{"title": "x"}},
			outcome: blocked, exit: 2, stderr: "no secrets\n",
		},
		{
			name: "prompt block", payload: prompt, canon: "pre_llm_call",
			fields:  map[string]any{"prompt": "deploy it", "user_message": "deploy it"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "not on Friday"}, exit: 2, stderr: "not on Friday\n",
		},
		{
			name: "prompt context is dropped", payload: prompt, canon: "pre_llm_call",
			outcome: protocol.Outcome{Context: "repo uses tabs"},
		},
		{
			// Windsurf reads nothing of a post_ hook: no exit 2 after it.
			name: "post command context is dropped", payload: postRun, canon: "post_tool_call",
			fields:  map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "make test"}},
			outcome: protocol.Outcome{Context: "2 tests failed"},
		},
		{
			name: "post command block is dropped", payload: postRun, canon: "post_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "lint errors", Stop: true},
		},
		{
			name:    "post read",
			payload: windsurfBase("post_read_code") + `,"tool_info":{"file_path":"/p/a.go"}}`, canon: "post_tool_call",
			fields: map[string]any{"tool_name": "read_file", "args": map[string]any{"path": "/p/a.go"}},
		},
		{
			name:    "post write",
			payload: windsurfBase("post_write_code") + `,"tool_info":{"file_path":"/p/a.go","edits":[]}}`, canon: "post_tool_call",
			fields: map[string]any{"tool_name": "patch", "args": map[string]any{"path": "/p/a.go", "edits": []any{}}},
		},
		{
			name:    "post mcp result",
			payload: windsurfBase("post_mcp_tool_use") + `,"tool_info":{"mcp_server_name":"s","mcp_tool_name":"t","mcp_tool_arguments":{},"mcp_result":"ok"}}`, canon: "post_tool_call",
			fields: map[string]any{"tool_name": "mcp__s__t", "result": "ok"},
		},
		{
			// Asynchronous: nothing of a reply is read.
			name:    "response",
			payload: windsurfBase("post_cascade_response") + `,"tool_info":{"response":"done"}}`, canon: "post_llm_call",
			fields:  map[string]any{"assistant_response": "done"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Context: "x"},
		},
		{
			name:    "response with transcript",
			payload: windsurfBase("post_cascade_response_with_transcript") + `,"tool_info":{"transcript_path":"/h/t.jsonl"}}`, canon: "post_llm_call",
			fields: map[string]any{"transcript_path": "/h/t.jsonl"},
		},
		{
			name: "no match", payload: run, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionNone},
		},
		{
			name:    "unknown event",
			payload: windsurfBase("post_setup_worktree") + `,"tool_info":{}}`, canon: "",
			outcome: blocked,
		},
		{
			name: "deny", payload: run, canon: "pre_tool_call", deny: "guard unreachable",
			exit: 2, stderr: "guard unreachable\n",
		},
		{
			name: "invalid stdin", payload: `{"agent_action_name":`, event: "pre_run_command", canon: "pre_tool_call", notJSON: true,
			deny: "payload unreadable", exit: 2, stderr: "payload unreadable\n",
		},
		{
			name: "invalid stdin, no event", payload: `not json`, notJSON: true, deny: "x",
		},
	})
}

func TestWindsurfHandler(t *testing.T) {
	var warns []string
	h := windsurfHandler("pre_run_command", map[string]any{"command": "./g.sh", "show_output": true, "working_directory": "tools dir", "extra": 1},
		func(s string) { warns = append(warns, s) })
	if got := string(pyjson.Encode(h, pyjson.Compact)); got != `{"command":"cd 'tools dir' && ./g.sh","matcher":"run_command","type":"command"}` {
		t.Errorf("handler = %s", got)
	}
	if len(warns) != 1 || warns[0] != "extra: not a Windsurf hook's key; ignored" {
		t.Errorf("warnings = %q", warns)
	}
	if h := windsurfHandler("pre_user_prompt", map[string]any{"command": "x"}, nil); h["matcher"] != nil {
		t.Errorf("a prompt hook got a matcher: %v", h)
	}
}

// The keys a Windsurf hook should not have are named in one order, the
// keys' (the file's order is gone once decoded): the same file gets the
// same warnings, as validate's output and a test's golden need.
func TestWindsurfHandlerWarnsInOrder(t *testing.T) {
	h := map[string]any{"command": "x"}
	var want []string
	for _, k := range strings.Split("a b c d e f g h i j k l m n o p", " ") {
		h[k] = 1
		want = append(want, k+": not a Windsurf hook's key; ignored")
	}
	var warns []string
	windsurfHandler("pre_run_command", h, func(s string) { warns = append(warns, s) })
	if !slices.Equal(warns, want) {
		t.Errorf("warnings:\n%s", strings.Join(warns, "\n"))
	}
}

func TestWindsurfInstallEvents(t *testing.T) {
	for _, e := range windsurf.HookFile.Events {
		if _, ok := windsurf.Events[e]; !ok {
			t.Errorf("install registers %s, which hook windsurf does not serve", e)
		}
	}
	if windsurf.HookFile.Layout != Flat || !windsurf.HookFile.NoVersion {
		t.Error("Windsurf's hooks.json is flat and has no version key")
	}
}
