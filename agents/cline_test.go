package agents

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// clineBase is the start of every payload Cline 2.18 writes to a hook
// file's stdin (cline 2.18.0 dist/cli.mjs, the hook input): version, the
// file's event, timestamp, task, workspace roots, user, model.
func clineBase(event string) string {
	return `{"clineVersion":"2.18.0","hookName":"` + event + `","timestamp":"1764064800000","taskId":"t1","workspaceRoots":["/p"],"userId":"u1","model":{"provider":"anthropic","slug":"claude-sonnet"}`
}

func TestClineGolden(t *testing.T) {
	pre := clineBase("PreToolUse") + `,"preToolUse":{"toolName":"execute_command","parameters":{"command":"rm -rf /","requires_approval":"true"}}}`
	post := clineBase("PostToolUse") + `,"postToolUse":{"toolName":"read_file","parameters":{"path":"a.go"},"result":"package a","success":true,"executionTimeMs":3}}`
	prompt := clineBase("UserPromptSubmit") + `,"userPromptSubmit":{"prompt":"deploy it","attachments":[]}}`
	meta := `{"taskMetadata":{"taskId":"t1"}}}`
	blocked := protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no rm -rf"}
	cancel := `{"cancel":true,"errorMessage":"no rm -rf"}` + "\n"
	runWireCases(t, cline, []wireCase{
		{
			name: "pre tool block cancels", payload: pre, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "rm -rf /"}, "session_id": "t1", "cwd": "/p", "model": "claude-sonnet"},
			outcome: blocked, stdout: cancel,
		},
		{
			name: "pre tool allow", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAllow, Message: "fine"},
		},
		{
			// Cline cannot ask: the task stops with the question.
			name: "ask cancels", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?"},
			stdout:  `{"cancel":true,"errorMessage":"sure? (hermes-hooks: Cline cannot ask from a hook; the task is stopped)"}` + "\n",
		},
		{
			name: "rewrite cancels with the new arguments", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Args: map[string]any{"command": "rm -ri /tmp/x"}},
			stdout:  `{"cancel":true,"errorMessage":"hermes-hooks: a hook rewrote this call, and Cline cannot run rewritten arguments; the task is stopped. Rewritten arguments: {\"command\":\"rm -ri /tmp/x\"}"}` + "\n",
		},
		{
			name: "pre tool context", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Context: "careful", InjectSystem: "be brief"},
			stdout:  `{"contextModification":"careful\n\nbe brief"}` + "\n",
		},
		{
			name:    "mcp tool",
			payload: clineBase("PreToolUse") + `,"preToolUse":{"toolName":"use_mcp_tool","parameters":{"server_name":"github","tool_name":"create_issue","arguments":"{\"title\":\"x\"}"}}}`, canon: "pre_tool_call",
			fields: map[string]any{"tool_name": "mcp__github__create_issue", "args": map[string]any{"title": "x"}},
		},
		{
			name: "post tool block is context", payload: post, canon: "post_tool_call",
			fields:  map[string]any{"tool_name": "read_file", "args": map[string]any{"path": "a.go"}, "result": "package a"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "secret in file", Context: "see log"},
			stdout:  `{"contextModification":"secret in file\n\nsee log"}` + "\n",
		},
		{
			name: "post tool stop", payload: post, canon: "post_tool_call",
			outcome: protocol.Outcome{Stop: true, StopReason: "enough"},
			stdout:  `{"cancel":true,"errorMessage":"enough"}` + "\n",
		},
		{
			name: "prompt block", payload: prompt, canon: "pre_llm_call",
			fields:  map[string]any{"prompt": "deploy it", "user_message": "deploy it"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "not on Friday"},
			stdout:  `{"cancel":true,"errorMessage":"not on Friday"}` + "\n",
		},
		{
			name: "prompt context", payload: prompt, canon: "pre_llm_call",
			outcome: protocol.Outcome{Context: "repo uses tabs"},
			stdout:  `{"contextModification":"repo uses tabs"}` + "\n",
		},
		{
			name:    "task start context",
			payload: clineBase("TaskStart") + `,"taskStart":` + meta, canon: "on_session_start",
			fields:  map[string]any{"source": "startup"},
			outcome: protocol.Outcome{Context: "branch main"},
			stdout:  `{"contextModification":"branch main"}` + "\n",
		},
		{
			name:    "task resume stop",
			payload: clineBase("TaskResume") + `,"taskResume":{"taskMetadata":{"taskId":"t1"},"previousState":{}}}`, canon: "on_session_start",
			fields:  map[string]any{"source": "resume"},
			outcome: protocol.Outcome{Stop: true, StopReason: "frozen"},
			stdout:  `{"cancel":true,"errorMessage":"frozen"}` + "\n",
		},
		{
			// Cline reads no reply of TaskCancel or TaskComplete.
			name:    "task cancel",
			payload: clineBase("TaskCancel") + `,"taskCancel":{"taskMetadata":{"taskId":"t1","completionStatus":"cancelled"}}}`, canon: "on_session_end",
			fields:  map[string]any{"reason": "cancelled", "interrupted": true},
			outcome: protocol.Outcome{Stop: true, Context: "x"},
		},
		{
			name:    "task complete",
			payload: clineBase("TaskComplete") + `,"taskComplete":` + meta, canon: "on_session_end",
			fields:  map[string]any{"reason": "completed", "completed": true},
			outcome: protocol.Outcome{Context: "x"},
		},
		{
			name:    "pre compact block",
			payload: clineBase("PreCompact") + `,"preCompact":{"taskId":"t1","compactionStrategy":"auto"}}`, canon: "PreCompact",
			fields:  map[string]any{"trigger": "auto"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "save first"},
			stdout:  `{"cancel":true,"errorMessage":"save first"}` + "\n",
		},
		{
			// The SDK behind cline 3.x names the PreToolUse file's run
			// tool_call, and applies overrideInput. Its shell tool
			// run_commands is terminal (seen under cline 3.0.65, make e2e).
			name:    "sdk rewrite",
			payload: `{"hookName":"tool_call","taskId":"t1","tool_call":{"name":"run_commands","input":{"commands":["ls"]}}}`, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}},
			outcome: protocol.Outcome{Args: map[string]any{"command": "ls -a"}, Context: "x"},
			stdout:  `{"overrideInput":{"commands":["ls -a"]},"contextModification":"x"}` + "\n",
		},
		{
			name:    "sdk block, several commands",
			payload: `{"hookName":"tool_call","taskId":"t1","tool_call":{"name":"run_commands","input":{"commands":["ls","rm -rf x"]}}}`, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls\nrm -rf x"}},
			outcome: blocked, stdout: cancel,
		},
		{
			name:    "sdk other tool, raw input",
			payload: `{"hookName":"tool_call","taskId":"t1","tool_call":{"name":"search_codebase","input":{"queries":["a"]}}}`, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "search_codebase", "args": map[string]any{"queries": []any{"a"}}},
			outcome: protocol.Outcome{Args: map[string]any{"queries": []any{}}},
			stdout:  `{"overrideInput":{"queries":[]}}` + "\n",
		},
		{
			name:    "sdk post tool",
			payload: `{"hookName":"tool_result","taskId":"t1","tool_result":{"name":"run_commands","input":{"commands":["ls"]}},"postToolUse":{"toolName":"run_commands","parameters":{"commands":"[\"ls\"]"},"result":"a.go","success":true}}`, canon: "post_tool_call",
			fields:  map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "ls"}, "result": "a.go"},
			outcome: protocol.Outcome{Context: "x"},
			stdout:  `{"contextModification":"x"}` + "\n",
		},
		{
			name: "no match", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionNone},
		},
		{
			name:    "unknown event",
			payload: clineBase("Notification") + `,"notification":{"message":"x"}}`, canon: "",
			outcome: blocked,
		},
		{
			name: "deny", payload: pre, canon: "pre_tool_call", deny: "guard unreachable",
			stdout: `{"cancel":true,"errorMessage":"guard unreachable"}` + "\n",
		},
		{
			name: "invalid stdin", payload: `{"hookName":`, event: "PreToolUse", canon: "pre_tool_call", notJSON: true,
			deny: "payload unreadable", stdout: `{"cancel":true,"errorMessage":"payload unreadable"}` + "\n",
		},
		{
			name: "invalid stdin, no event", payload: `not json`, notJSON: true, deny: "x",
		},
	})
}

func TestClineInstallEvents(t *testing.T) {
	want := []string{"TaskStart", "TaskResume", "TaskCancel", "TaskComplete", "PreToolUse", "PostToolUse", "UserPromptSubmit", "PreCompact"}
	if got := cline.HookFile.Events; len(got) != len(want) {
		t.Fatalf("install events = %v, want %v", got, want)
	}
	for i, e := range want {
		if cline.HookFile.Events[i] != e {
			t.Errorf("install event %d = %s, want %s", i, cline.HookFile.Events[i], e)
		}
		if _, ok := cline.SourceEvent(e); !ok {
			t.Errorf("%s is not an event of Cline's hooks folder", e)
		}
	}
	if _, ok := cline.SourceEvent("tool_call"); ok {
		t.Error("tool_call (the SDK's payload name) is no file's name")
	}
}
