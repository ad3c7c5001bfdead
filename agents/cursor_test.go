package agents

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

func TestCursorGolden(t *testing.T) {
	shell := `{"conversation_id":"c1","hook_event_name":"preToolUse","tool_name":"Shell","tool_input":{"command":"rm -rf /"},"workspace_roots":["/p"]}`
	runGolden(t, cursor, []golden{
		{
			name: "block", payload: shell, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "rm -rf /"}, "session_id": "c1", "cwd": "/p"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no rm -rf"},
			stdout:  `{"permission":"deny","user_message":"no rm -rf","agent_message":"no rm -rf"}` + "\n",
		},
		{
			// Cursor's Windows CLI writes the payload behind a UTF-8 byte
			// order mark: read as not JSON, no guard ran and the call went
			// through.
			name: "payload behind a byte order mark", payload: "\ufeff" + shell, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "rm -rf /"}, "session_id": "c1", "cwd": "/p"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no rm -rf"},
			stdout:  `{"permission":"deny","user_message":"no rm -rf","agent_message":"no rm -rf"}` + "\n",
		},
		{
			name: "ask", payload: shell, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?"},
			stdout:  `{"permission":"ask","user_message":"sure?","agent_message":"sure?"}` + "\n",
		},
		{
			name: "allow", payload: shell, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAllow},
			stdout:  `{"permission":"allow"}` + "\n",
		},
		{
			name: "rewrite", payload: shell, canon: "pre_tool_call",
			outcome: protocol.Outcome{Args: map[string]any{"command": "ls"}},
			stdout:  `{"updated_input":{"command":"ls"}}` + "\n",
		},
		{
			name: "no match", payload: shell, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionNone},
		},
		{
			name:    "tool input as a JSON string",
			payload: `{"hook_event_name":"preToolUse","tool_name":"Read","tool_input":"{\"path\":\"a.txt\"}"}`, canon: "pre_tool_call",
			fields: map[string]any{"tool_name": "read_file", "args": map[string]any{"path": "a.txt"}},
		},
		{
			name:    "shell execution",
			payload: `{"hook_event_name":"beforeShellExecution","command":"git push","cwd":"/p"}`, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "git push"}},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "not on main"},
			stdout:  `{"permission":"deny","user_message":"not on main","agent_message":"not on main"}` + "\n",
		},
		{
			name:    "read file ask fails safe",
			payload: `{"hook_event_name":"beforeReadFile","file_path":".env"}`, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "read_file", "args": map[string]any{"path": ".env"}},
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "secrets"},
			stdout:  `{"permission":"deny","user_message":"secrets (hermes-hooks: Cursor cannot ask before a file read; this read is refused)","agent_message":"secrets (hermes-hooks: Cursor cannot ask before a file read; this read is refused)"}` + "\n",
		},
		{
			name:    "prompt refused",
			payload: `{"hook_event_name":"beforeSubmitPrompt","prompt":"secret"}`, canon: "pre_llm_call",
			fields:  map[string]any{"user_message": "secret"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "contains a secret"},
			stdout:  `{"continue":false,"user_message":"contains a secret"}` + "\n",
		},
		{
			name:    "stop keeps going",
			payload: `{"hook_event_name":"stop","status":"completed","loop_count":0}`, canon: "pre_verify",
			fields:  map[string]any{"stop_hook_active": false},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "run the tests"},
			stdout:  `{"followup_message":"run the tests"}` + "\n",
		},
		{
			name:    "stop context",
			payload: `{"hook_event_name":"stop","loop_count":2}`, canon: "pre_verify",
			fields:  map[string]any{"stop_hook_active": true},
			outcome: protocol.Outcome{Context: "also update the changelog"},
			stdout:  `{"followup_message":"also update the changelog"}` + "\n",
		},
		{
			name:    "session start context and env",
			payload: `{"hook_event_name":"sessionStart"}`, canon: "on_session_start",
			outcome: protocol.Outcome{Context: "branch main", Env: map[string]string{"A": "1"}},
			stdout:  `{"additional_context":"branch main","env":{"A":"1"}}` + "\n",
		},
		{
			name:    "post tool feedback",
			payload: `{"hook_event_name":"postToolUse","tool_name":"Write","tool_input":{"path":"a"},"tool_output":"ok"}`, canon: "post_tool_call",
			fields:  map[string]any{"tool_name": "write_file", "result": "ok"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "lint failed"},
			stdout:  `{"additional_context":"lint failed"}` + "\n",
		},
		{
			name:    "unknown event",
			payload: `{"hook_event_name":"afterAgentThought","text":"x"}`, canon: "",
		},
	})
}
