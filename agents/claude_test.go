package agents

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

func TestClaudeGolden(t *testing.T) {
	pre := `{"session_id":"s1","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf /"}}`
	out := "tool output"
	runGolden(t, claude, []golden{
		{
			name: "block", payload: pre, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"}, "session_id": "s1"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no rm -rf"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm -rf"}}` + "\n",
		},
		{
			name: "ask", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}` + "\n",
		},
		{
			name: "allow", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAllow},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}` + "\n",
		},
		{
			name: "rewrite", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Args: map[string]any{"command": "rm -ri /tmp/x"}},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"rm -ri /tmp/x"}}}` + "\n",
		},
		{
			name: "context on PreToolUse", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Context: "careful"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"careful"}}` + "\n",
		},
		{
			name: "no match", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionNone},
		},
		{
			name:    "prompt context and inject",
			payload: `{"hook_event_name":"UserPromptSubmit","prompt":"fix it","session_id":"s1"}`, canon: "pre_llm_call",
			fields:  map[string]any{"prompt": "fix it", "user_message": "fix it"},
			outcome: protocol.Outcome{Context: "repo uses tabs", InjectUser: "be brief"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"repo uses tabs\n\nbe brief"}}` + "\n",
		},
		{
			name:    "prompt refused",
			payload: `{"hook_event_name":"UserPromptSubmit","prompt":"secret"}`, canon: "pre_llm_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "contains a secret"},
			stdout:  `{"decision":"block","reason":"contains a secret"}` + "\n",
		},
		{
			name:    "stop keeps going",
			payload: `{"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done"}`, canon: "pre_verify",
			fields:  map[string]any{"final_response": "done"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "run the tests first"},
			stdout:  `{"decision":"block","reason":"run the tests first"}` + "\n",
		},
		{
			name:    "subagent summary",
			payload: `{"hook_event_name":"SubagentStop","last_assistant_message":"found 3"}`, canon: "subagent_stop",
			fields: map[string]any{"child_summary": "found 3"},
		},
		{
			name:    "stop everything",
			payload: `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{},"tool_response":{}}`, canon: "post_tool_call",
			outcome: protocol.Outcome{Stop: true, StopReason: "budget spent", SystemMessage: "stopped by hermes-hooks"},
			stdout:  `{"continue":false,"stopReason":"budget spent","systemMessage":"stopped by hermes-hooks"}` + "\n",
		},
		{
			name:    "post-tool feedback and rewritten output",
			payload: `{"hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{},"tool_response":{}}`, canon: "post_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "lint failed", Result: &out},
			stdout:  `{"decision":"block","reason":"lint failed","hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"tool output"}}` + "\n",
		},
		{
			name:    "permission request denied",
			payload: `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"curl x | sh"}}`, canon: "PermissionRequest",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "pipe to shell"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"pipe to shell"}}}` + "\n",
		},
		{
			name:    "session start context",
			payload: `{"hook_event_name":"SessionStart","source":"startup"}`, canon: "on_session_start",
			outcome: protocol.Outcome{Context: "branch main"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"branch main"}}` + "\n",
		},
		{
			name:    "event from the command line",
			payload: `{"tool_name":"Bash","tool_input":{"command":"ls"}}`, event: "PreToolUse", canon: "pre_tool_call",
		},
		{
			name:    "unknown event",
			payload: `{"hook_event_name":"SomethingNew","x":1}`, canon: "",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "ignored"},
		},
	})
}

func TestClaudeDeny(t *testing.T) {
	c, err := claude.Decode([]byte("{garbage"), "PreToolUse")
	if err == nil || c.Event == nil {
		t.Fatalf("Decode = %+v, %v", c, err)
	}
	r := claude.Deny(c, "payload unreadable")
	want := `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"payload unreadable"}}` + "\n"
	if string(r.Stdout) != want || r.Exit != 0 {
		t.Fatalf("Deny = %q exit %d, want %q", r.Stdout, r.Exit, want)
	}
	// Not a gating event: nothing to refuse.
	c, _ = claude.Decode([]byte("{garbage"), "SessionStart")
	if r := claude.Deny(c, "x"); len(r.Stdout) != 0 {
		t.Fatalf("Deny on SessionStart = %q", r.Stdout)
	}
}
