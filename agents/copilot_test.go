package agents

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

func TestCopilotGolden(t *testing.T) {
	// Payloads as Copilot CLI 1.0.102 documents them: PascalCase-configured
	// hooks get snake_case with hook_event_name and Claude tool names;
	// camelCase-configured ones get camelCase without the event name.
	pre := `{"hook_event_name":"PreToolUse","session_id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/p","tool_name":"Bash","tool_input":{"command":"rm -rf /","description":"clean"}}`
	camelPre := `{"sessionId":"s1","timestamp":1704614400000,"cwd":"/p","toolName":"bash","toolArgs":"{\"command\":\"rm -rf /\"}"}`
	perm := `{"hook_event_name":"PermissionRequest","session_id":"s1","tool_name":"Bash","tool_input":{"command":"git push"}}`
	post := `{"hook_event_name":"PostToolUse","session_id":"s1","tool_name":"Read","tool_input":{"path":"a.go"},"tool_result":{"result_type":"success","text_result_for_llm":"package a"}}`
	res := "package b"
	runWireCases(t, copilot, []wireCase{
		{
			name: "block", payload: pre, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /", "description": "clean"}, "session_id": "s1"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no rm -rf"},
			stdout:  `{"permissionDecision":"deny","permissionDecisionReason":"no rm -rf"}` + "\n",
		},
		{
			name: "camelCase block", payload: camelPre, event: "preToolUse", canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"}, "session_id": "s1"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock},
			stdout:  `{"permissionDecision":"deny","permissionDecisionReason":"Blocked by hook"}` + "\n",
		},
		{
			name: "ask", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?"},
			stdout:  `{"permissionDecision":"ask","permissionDecisionReason":"sure?"}` + "\n",
		},
		{
			name: "allow", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAllow},
			stdout:  `{"permissionDecision":"allow"}` + "\n",
		},
		{
			name: "rewrite", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Args: map[string]any{"command": "rm -ri /tmp/x"}},
			stdout:  `{"modifiedArgs":{"command":"rm -ri /tmp/x"}}` + "\n",
		},
		{
			name: "context", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Context: "careful", SystemMessage: "not read by Copilot"},
			stdout:  `{"additionalContext":"careful"}` + "\n",
		},
		{
			name: "stop refuses the tool", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Stop: true, StopReason: "budget spent"},
			stdout:  `{"permissionDecision":"deny","permissionDecisionReason":"budget spent"}` + "\n",
		},
		{
			name: "no match", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionNone},
		},
		{
			name: "deny", payload: camelPre, event: "preToolUse", canon: "pre_tool_call", deny: "guard unreachable",
			stdout: `{"permissionDecision":"deny","permissionDecisionReason":"guard unreachable"}` + "\n",
		},
		{
			name: "invalid stdin", payload: `{"toolName":`, event: "preToolUse", canon: "pre_tool_call", notJSON: true,
			deny:   "payload unreadable",
			stdout: `{"permissionDecision":"deny","permissionDecisionReason":"payload unreadable"}` + "\n",
		},
		{
			name: "unknown event", payload: `{"sessionId":"s1","error":{"message":"x","name":"E"},"errorContext":"system"}`, event: "errorOccurred", canon: "",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "x"},
		},
		{
			name: "permission block", payload: perm, canon: "PermissionRequest",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "not today"},
			stdout:  `{"behavior":"deny","message":"not today"}` + "\n",
		},
		{
			name: "permission stop interrupts", payload: perm, canon: "PermissionRequest",
			outcome: protocol.Outcome{Stop: true, StopReason: "halt"},
			stdout:  `{"behavior":"deny","message":"halt","interrupt":true}` + "\n",
		},
		{
			name: "permission allow", payload: perm, canon: "PermissionRequest",
			outcome: protocol.Outcome{Decision: protocol.DecisionAllow},
			stdout:  `{"behavior":"allow"}` + "\n",
		},
		{
			name: "permission ask is Copilot's own prompt", payload: perm, canon: "PermissionRequest",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk},
		},
		{
			name: "post tool result replaced", payload: post, canon: "post_tool_call",
			fields:  map[string]any{"tool_name": "Read", "result": "package a", "tool_response": map[string]any{"result_type": "success", "text_result_for_llm": "package a"}},
			outcome: protocol.Outcome{Result: &res},
			stdout:  `{"modifiedResult":{"resultType":"success","textResultForLlm":"package b"}}` + "\n",
		},
		{
			name: "post tool feedback", payload: post, canon: "post_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "lint failed", Context: "run gofmt"},
			stdout:  `{"additionalContext":"lint failed\n\nrun gofmt"}` + "\n",
		},
		{
			name:    "camelCase post tool",
			payload: `{"sessionId":"s1","toolName":"view","toolArgs":{"path":"a.go"},"toolResult":{"resultType":"success","textResultForLlm":"package a"}}`, event: "postToolUse", canon: "post_tool_call",
			fields: map[string]any{"tool_name": "Read", "tool_input": map[string]any{"path": "a.go"}, "result": "package a"},
		},
		{
			name:    "tool failure context",
			payload: `{"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"make"},"error":"exit 2"}`, canon: "PostToolUseFailure",
			outcome: protocol.Outcome{Context: "install make first"},
			stdout:  `{"additionalContext":"install make first"}` + "\n",
		},
		{
			// Feedback on a failure (Claude Code's decision "block" there)
			// reaches the model as the one channel Copilot reads.
			name:    "tool failure feedback",
			payload: `{"hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_input":{"command":"make"},"error":"exit 2"}`, canon: "PostToolUseFailure",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "do not retry make", Context: "install make first"},
			stdout:  `{"additionalContext":"do not retry make\n\ninstall make first"}` + "\n",
		},
		{
			// Copilot drops a command hook's output here; exit 2 shows stderr.
			name: "prompt refused", payload: `{"sessionId":"s1","timestamp":1,"cwd":"/p","prompt":"paste key sk-1"}`, event: "userPromptSubmitted", canon: "pre_llm_call",
			fields:  map[string]any{"user_message": "paste key sk-1", "session_id": "s1"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "contains a secret"},
			exit:    2, stderr: "contains a secret\n",
		},
		{
			name:    "prompt context is not read",
			payload: `{"hook_event_name":"UserPromptSubmit","prompt":"hi"}`, canon: "pre_llm_call",
			outcome: protocol.Outcome{Context: "x"},
		},
		{
			name:    "session start context",
			payload: `{"hook_event_name":"SessionStart","session_id":"s1","source":"new"}`, canon: "on_session_start",
			outcome: protocol.Outcome{Context: "branch main"},
			stdout:  `{"additionalContext":"branch main"}` + "\n",
		},
		{
			name:    "subagent start context",
			payload: `{"sessionId":"s1","agentName":"explore","agentDisplayName":"Explore"}`, event: "subagentStart", canon: "subagent_start",
			fields:  map[string]any{"agent_type": "explore"},
			outcome: protocol.Outcome{Context: "stay in src/"},
			stdout:  `{"additionalContext":"stay in src/"}` + "\n",
		},
		{
			name:    "stop keeps going",
			payload: `{"sessionId":"s1","transcriptPath":"/t","stopReason":"end_turn","stop_hook_active":false}`, event: "agentStop", canon: "pre_verify",
			fields:  map[string]any{"stop_hook_active": false, "transcript_path": "/t"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "run the tests first"},
			stdout:  `{"decision":"block","reason":"run the tests first"}` + "\n",
		},
		{
			name:    "Stop context is not read",
			payload: `{"hook_event_name":"Stop","stop_hook_active":true}`, canon: "pre_verify",
			outcome: protocol.Outcome{Context: "x", Stop: true},
		},
		{
			name:    "subagent stop keeps going",
			payload: `{"sessionId":"s1","agentId":"a1","agentType":"task","agentName":"task","response":"half done"}`, event: "subagentStop", canon: "subagent_stop",
			fields:  map[string]any{"child_summary": "half done", "agent_type": "task"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock},
			stdout:  `{"decision":"block","reason":"Blocked by hook"}` + "\n",
		},
		{
			name:    "pre compact reads nothing",
			payload: `{"hook_event_name":"PreCompact","trigger":"auto"}`, canon: "PreCompact",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "x"},
		},
		{
			name:    "session end reads nothing",
			payload: `{"sessionId":"s1","reason":"complete"}`, event: "sessionEnd", canon: "on_session_end",
			outcome: protocol.Outcome{Context: "x"},
		},
		{
			// The camelCase notification names itself anyway: payload wins.
			name:    "notification context",
			payload: `{"sessionId":"s1","hook_event_name":"Notification","message":"Shell completed","notification_type":"shell_completed"}`, event: "notification", canon: "Notification",
			outcome: protocol.Outcome{Context: "check the build log"},
			stdout:  `{"additionalContext":"check the build log"}` + "\n",
		},
	})
}

// TestInstallEventsCodexCopilot: install registers every event served, in
// one spelling each (a second spelling would run every hook twice).
func TestInstallEventsCodexCopilot(t *testing.T) {
	for _, a := range []*Agent{codex, copilot} {
		seen := map[string]bool{}
		for _, n := range a.HookFile.Events {
			canon, ok := a.Events[n]
			if !ok {
				t.Errorf("%s: %s is not a served event", a.Name, n)
			}
			if seen[canon] {
				t.Errorf("%s: %s registered twice", a.Name, canon)
			}
			seen[canon] = true
		}
		served := map[string]bool{}
		for _, canon := range a.Events {
			served[canon] = true
		}
		if len(seen) != len(served) {
			t.Errorf("%s: install covers %d events, %d are served", a.Name, len(seen), len(served))
		}
	}
}

// A .github/hooks/*.json file in VS Code's format: "command" with per-OS
// overrides (linux, osx, windows). The handler runs this system's override,
// else "command"; Copilot CLI's bash/powershell still apply when there is
// no override for this system.
func TestCopilotHandlerPerOS(t *testing.T) {
	h := map[string]any{"type": "command", "command": "./default.sh", "linux": "./linux.sh", "osx": "./mac.sh",
		"windows": "powershell -File w.ps1", "timeout": 5.0}
	defer func(os string) { hostOS = os }(hostOS)
	for _, tc := range []struct{ os, want string }{
		{"linux", "./linux.sh"}, {"darwin", "./mac.sh"}, {"windows", "powershell -File w.ps1"}, {"freebsd", "./default.sh"},
	} {
		hostOS = tc.os
		out := copilotHandler("PreToolUse", h, func(w string) { t.Errorf("%s: warning %q", tc.os, w) })
		if out["command"] != tc.want {
			t.Errorf("%s: command %v, want %s", tc.os, out["command"], tc.want)
		}
		for _, k := range []string{"linux", "osx", "windows"} {
			if _, left := out[k]; left {
				t.Errorf("%s: %s left in the Claude handler", tc.os, k)
			}
		}
	}
	hostOS = "linux"
	out := copilotHandler("PreToolUse", map[string]any{"bash": "./cli.sh", "osx": "./mac.sh"}, func(string) {})
	if out["command"] != "./cli.sh" {
		t.Errorf("no linux override: command %v, want Copilot CLI's bash", out["command"])
	}
}

// timeoutSec and its alias timeout: Copilot CLI takes timeout only where
// timeoutSec is absent (hooks reference, "Command hooks"). Read the other
// way round, an entry with both waited the alias's few seconds under
// hermes-hooks, and a slow guard that Copilot waits for timed out, which
// lets the call through as Copilot's preToolUse does.
func TestCopilotHandlerTimeout(t *testing.T) {
	for _, tc := range []struct {
		h    map[string]any
		want any
	}{
		{map[string]any{"bash": "./g.sh", "timeoutSec": 600.0, "timeout": 5.0}, 600.0},
		{map[string]any{"bash": "./g.sh", "timeoutSec": 600.0}, 600.0},
		{map[string]any{"bash": "./g.sh", "timeout": 5.0}, 5.0},
		{map[string]any{"bash": "./g.sh"}, nil},
	} {
		out := copilotHandler("preToolUse", tc.h, func(string) {})
		if out["timeout"] != tc.want {
			t.Errorf("%v: timeout %v, want %v", tc.h, out["timeout"], tc.want)
		}
	}
}
