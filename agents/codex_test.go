package agents

import (
	"errors"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// wireCase is one round trip through an agent, exact to the byte on all
// three channels: payload (and command-line event) in, the canonical event
// and host fields decoded, an outcome, then exit code, stdout and stderr.
type wireCase struct {
	name    string
	payload string
	event   string // command-line EVENT argument
	canon   string // "" for an event hermes-hooks does not serve
	fields  map[string]any
	outcome protocol.Outcome
	deny    string // when set, the reply is Deny(call, deny), not Encode
	notJSON bool   // Decode must fail with ErrNotJSON
	exit    int
	stdout  string
	stderr  string
}

func runWireCases(t *testing.T, a *Agent, cases []wireCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := a.Decode([]byte(tc.payload), tc.event)
			if tc.notJSON != errors.Is(err, ErrNotJSON) || (err != nil && !tc.notJSON) {
				t.Fatalf("Decode err = %v, want ErrNotJSON: %v", err, tc.notJSON)
			}
			got := ""
			if c.Event != nil {
				got = c.Event.Name
			}
			if got != tc.canon {
				t.Fatalf("event = %q, want %q", got, tc.canon)
			}
			for k, want := range tc.fields {
				g, w := pyjson.Encode(c.Fields[k], pyjson.Compact), pyjson.Encode(want, pyjson.Compact)
				if string(g) != string(w) {
					t.Errorf("field %s = %s, want %s", k, g, w)
				}
			}
			var r Reply
			if tc.deny != "" {
				r = a.Deny(c, tc.deny)
			} else {
				o := tc.outcome
				if c.Event != nil {
					o.Event = c.Event.Name
				}
				r = a.Encode(c, &o)
			}
			if r.Exit != tc.exit || string(r.Stdout) != tc.stdout || string(r.Stderr) != tc.stderr {
				t.Errorf("reply = exit %d stdout %q stderr %q\nwant    exit %d stdout %q stderr %q",
					r.Exit, r.Stdout, r.Stderr, tc.exit, tc.stdout, tc.stderr)
			}
		})
	}
}

func TestCodexGolden(t *testing.T) {
	// Payloads as Codex 0.169 writes them (its generated input schemas).
	pre := `{"session_id":"s1","turn_id":"t1","transcript_path":null,"cwd":"/p","hook_event_name":"PreToolUse","model":"gpt-5.5","permission_mode":"default","tool_name":"Bash","tool_input":{"command":"rm -rf /"},"tool_use_id":"c1"}`
	patch := `{"session_id":"s1","turn_id":"t1","cwd":"/p","hook_event_name":"PreToolUse","tool_name":"apply_patch","tool_input":{"command":"*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** End Patch"},"tool_use_id":"c2"}`
	perm := `{"session_id":"s1","turn_id":"t1","cwd":"/p","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"git push"}}`
	post := `{"session_id":"s1","turn_id":"t1","cwd":"/p","hook_event_name":"PostToolUse","tool_name":"Bash","tool_input":{"command":"make"},"tool_response":"ok","tool_use_id":"c1"}`
	prompt := `{"session_id":"s1","turn_id":"t1","cwd":"/p","hook_event_name":"UserPromptSubmit","prompt":"deploy it"}`
	stop := `{"session_id":"s1","turn_id":"t1","cwd":"/p","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done"}`
	res := "new output"
	runWireCases(t, codex, []wireCase{
		{
			name: "block", payload: pre, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"}, "session_id": "s1", "turn_id": "t1"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no rm -rf"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm -rf"}}` + "\n",
		},
		{
			// Codex refuses a deny without a reason (the tool would run).
			name: "block without a message", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Blocked by hook"}}` + "\n",
		},
		{
			// Nor one whose reason is blank once trimmed: the hook would
			// be a failed hook, and the call would run.
			name: "block with a blank message", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: " \t\n"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Blocked by hook"}}` + "\n",
		},
		{
			name: "block's message trimmed", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "  no rm -rf\n"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm -rf"}}` + "\n",
		},
		{
			name: "blank prompt block", payload: prompt, canon: "pre_llm_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "   "},
			stdout:  `{"decision":"block","reason":"Blocked by hook"}` + "\n",
		},
		{
			name: "blank stop block", payload: stop, canon: "pre_verify",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "   "},
			stdout:  `{"decision":"block","reason":"Blocked by hook"}` + "\n",
		},
		{
			name: "blank permission deny", payload: perm, canon: "PermissionRequest",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: " "},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"Blocked by hook"}}}` + "\n",
		},
		{
			name: "ask becomes deny", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "needs approval"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"needs approval (hermes-hooks: Codex cannot ask from a PreToolUse hook; this call is refused)"}}` + "\n",
		},
		{
			// "allow" without updatedInput is an invalid reply to Codex.
			name: "allow says nothing", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAllow, Message: "fine"},
		},
		{
			name: "rewrite", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Args: map[string]any{"command": "rm -ri /tmp/x"}},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"rm -ri /tmp/x"}}}` + "\n",
		},
		{
			name: "context and system message", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Context: "careful", SystemMessage: "checked"},
			stdout:  `{"systemMessage":"checked","hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"careful"}}` + "\n",
		},
		{
			// continue:false is invalid on PreToolUse: the stop refuses the call.
			name: "stop", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Stop: true, StopReason: "budget spent"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"budget spent"}}` + "\n",
		},
		{
			name: "no match", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionNone},
		},
		{
			name: "apply_patch is the patch tool", payload: patch, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "patch", "tool_input": map[string]any{"mode": "patch", "patch": "*** Begin Patch\n*** Update File: a.go\n@@\n-x\n+y\n*** End Patch"}},
			outcome: protocol.Outcome{Decision: protocol.DecisionAllow, Args: map[string]any{"mode": "patch", "patch": "*** Begin Patch\n*** End Patch"}},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"*** Begin Patch\n*** End Patch"}}}` + "\n",
		},
		{
			name:    "mcp tool passes through",
			payload: `{"hook_event_name":"PreToolUse","tool_name":"mcp__github__create_issue","tool_input":{"title":"x"}}`, canon: "pre_tool_call",
			fields: map[string]any{"tool_name": "mcp__github__create_issue", "tool_input": map[string]any{"title": "x"}},
		},
		{
			name: "deny", payload: pre, canon: "pre_tool_call", deny: "guard unreachable",
			stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"guard unreachable"}}` + "\n",
		},
		{
			name: "invalid stdin", payload: `{"hook_event_name":`, event: "PreToolUse", canon: "pre_tool_call", notJSON: true,
			deny:   "payload unreadable",
			stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"payload unreadable"}}` + "\n",
		},
		{
			name: "invalid stdin, no event", payload: `not json`, notJSON: true, deny: "x",
		},
		{
			name: "unknown event", payload: `{"hook_event_name":"Interrupt","session_id":"s1","turn_id":"t1"}`, canon: "",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "x"},
		},
		{
			name: "permission block", payload: perm, canon: "PermissionRequest",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "not today"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not today"}}}` + "\n",
		},
		{
			// updatedInput is refused on PermissionRequest: it is left out.
			name: "permission allow", payload: perm, canon: "PermissionRequest",
			outcome: protocol.Outcome{Decision: protocol.DecisionAllow, Args: map[string]any{"command": "git push -n"}, Context: "x"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow"}}}` + "\n",
		},
		{
			name: "permission ask is Codex's own prompt", payload: perm, canon: "PermissionRequest",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?"},
		},
		{
			name: "permission stop", payload: perm, canon: "PermissionRequest",
			outcome: protocol.Outcome{Stop: true, StopReason: "halt"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"halt"}}}` + "\n",
		},
		{
			name: "post tool feedback", payload: post, canon: "post_tool_call",
			fields:  map[string]any{"tool_response": "ok"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "build failed", Context: "see log"},
			stdout:  `{"decision":"block","reason":"build failed","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"see log"}}` + "\n",
		},
		{
			// Codex 0.169 takes no replacement output for built-in tools.
			name: "post tool result not replaced", payload: post, canon: "post_tool_call",
			outcome: protocol.Outcome{Result: &res},
		},
		{
			name: "post tool stop", payload: post, canon: "post_tool_call",
			outcome: protocol.Outcome{Stop: true, StopReason: "enough"},
			stdout:  `{"continue":false,"stopReason":"enough"}` + "\n",
		},
		{
			name: "prompt refused", payload: prompt, canon: "pre_llm_call",
			fields:  map[string]any{"prompt": "deploy it", "user_message": "deploy it"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "not on Friday"},
			stdout:  `{"decision":"block","reason":"not on Friday"}` + "\n",
		},
		{
			name: "prompt context", payload: prompt, canon: "pre_llm_call",
			outcome: protocol.Outcome{Context: "repo uses tabs", InjectSystem: "be brief"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"repo uses tabs\n\nbe brief"}}` + "\n",
		},
		{
			name:    "session start context",
			payload: `{"session_id":"s1","cwd":"/p","hook_event_name":"SessionStart","source":"startup"}`, canon: "on_session_start",
			outcome: protocol.Outcome{Context: "branch main"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"branch main"}}` + "\n",
		},
		{
			name:    "subagent start context",
			payload: `{"hook_event_name":"SubagentStart","agent_id":"a1","agent_type":"worker"}`, canon: "subagent_start",
			fields:  map[string]any{"agent_type": "worker"},
			outcome: protocol.Outcome{Context: "stay in src/"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"stay in src/"}}` + "\n",
		},
		{
			name: "stop keeps going", payload: stop, canon: "pre_verify",
			fields:  map[string]any{"final_response": "done", "stop_hook_active": false},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "run the tests first"},
			stdout:  `{"decision":"block","reason":"run the tests first"}` + "\n",
		},
		{
			// Stop's schema has no hookSpecificOutput: context is left out.
			name: "stop context", payload: stop, canon: "pre_verify",
			outcome: protocol.Outcome{Context: "x"},
		},
		{
			name: "stop stops", payload: stop, canon: "pre_verify",
			outcome: protocol.Outcome{Stop: true, StopReason: "done for today", SystemMessage: "bye"},
			stdout:  `{"continue":false,"stopReason":"done for today","systemMessage":"bye"}` + "\n",
		},
		{
			name:    "subagent stop keeps going",
			payload: `{"hook_event_name":"SubagentStop","agent_id":"a1","agent_type":"worker","stop_hook_active":true,"last_assistant_message":"half"}`, canon: "subagent_stop",
			fields:  map[string]any{"child_summary": "half", "stop_hook_active": true},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock},
			stdout:  `{"decision":"block","reason":"Blocked by hook"}` + "\n",
		},
		{
			name:    "pre compact block stops",
			payload: `{"hook_event_name":"PreCompact","trigger":"auto"}`, canon: "PreCompact",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "save first", Context: "x"},
			stdout:  `{"continue":false,"stopReason":"save first"}` + "\n",
		},
		{
			name:    "post compact message",
			payload: `{"hook_event_name":"PostCompact","trigger":"manual"}`, canon: "PostCompact",
			outcome: protocol.Outcome{SystemMessage: "compacted"},
			stdout:  `{"systemMessage":"compacted"}` + "\n",
		},
		{
			name:    "session end reads nothing",
			payload: `{"hook_event_name":"SessionEnd","reason":"other"}`, canon: "on_session_end",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, SystemMessage: "x"},
		},
		// Codex 0.171's model-request events, payloads as it sent them
		// (make e2e's TestCodexEventCoverage logs them): observe only.
		{
			name:    "pre model request is pre_api_request",
			payload: `{"kind":"sampling","request_id":"r1","attempt_number":1,"session_id":"s","thread_id":"s","turn_id":"t","cwd":"/p","transcript_path":"/t.jsonl","model":"gpt-e2e","hook_event_name":"PreModelRequest"}`,
			canon:   "pre_api_request",
			fields:  map[string]any{"api_request_id": "r1", "model": "gpt-e2e", "attempt_number": int64(1)},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, SystemMessage: "x"},
		},
		{
			name:    "post model request is post_api_request",
			payload: `{"kind":"sampling","request_id":"r1","attempt_number":1,"session_id":"s","model":"gpt-e2e","hook_event_name":"PostModelRequest","status":"completed","error":null,"token_usage":{"input_tokens":100}}`,
			canon:   "post_api_request",
			fields:  map[string]any{"api_request_id": "r1", "status": "completed", "usage": map[string]any{"input_tokens": int64(100)}},
			outcome: protocol.Outcome{Context: "ignored"},
		},
	})
}
