package agents

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// geminiBase is the start of every Gemini CLI 0.61 payload
// (HookEventHandler.createBaseInput): session, transcript, cwd, event,
// an ISO timestamp.
func geminiBase(event string) string {
	return `{"session_id":"s1","transcript_path":"/h/.gemini/tmp/p/chats/session-1.json","cwd":"/p","hook_event_name":"` + event + `","timestamp":"2026-11-25T10:00:00.000Z"`
}

func TestGeminiGolden(t *testing.T) {
	// Payloads as Gemini CLI 0.61 builds them (fireBeforeToolEvent …);
	// replies as its hookRunner, hookAggregator and tool scheduler read them.
	pre := geminiBase("BeforeTool") + `,"tool_name":"run_shell_command","tool_input":{"command":"rm -rf /","description":"clean up"}}`
	post := geminiBase("AfterTool") + `,"tool_name":"read_file","tool_input":{"file_path":"a.go"},"tool_response":{"llmContent":"package a","returnDisplay":"Read a.go"}}`
	prompt := geminiBase("BeforeAgent") + `,"prompt":"deploy it"}`
	after := geminiBase("AfterAgent") + `,"prompt":"deploy it","prompt_response":"done","stop_hook_active":false}`
	res := "new output"
	runWireCases(t, gemini, []wireCase{
		{
			name: "block", payload: pre, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /", "description": "clean up"}, "session_id": "s1", "timestamp": "2026-11-25T10:00:00.000Z"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no rm -rf"},
			stdout:  `{"decision":"deny","reason":"no rm -rf"}` + "\n",
		},
		{
			// Gemini shows "No reason provided" without one.
			name: "block without a message", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock},
			stdout:  `{"decision":"deny","reason":"Blocked by hook"}` + "\n",
		},
		{
			// The confirmation shows systemMessage, not reason.
			name: "ask", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?", SystemMessage: "policy"},
			stdout:  `{"decision":"ask","systemMessage":"sure?\n\npolicy"}` + "\n",
		},
		{
			// A Gemini hook's ask: its systemMessage is its question and
			// its system message at once; shown once, not twice.
			name: "ask whose question is the system message", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "q?", SystemMessage: "q?"},
			stdout:  `{"decision":"ask","systemMessage":"q?"}` + "\n",
		},
		{
			name: "ask whose question is one of the system messages", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "q?", SystemMessage: "policy\nq?"},
			stdout:  `{"decision":"ask","systemMessage":"policy\nq?"}` + "\n",
		},
		{
			name: "allow", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAllow, Message: "fine"},
			stdout:  `{"decision":"allow"}` + "\n",
		},
		{
			name: "rewrite", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Args: map[string]any{"command": "rm -ri /tmp/x", "description": "clean up"}},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"BeforeTool","tool_input":{"command":"rm -ri /tmp/x","description":"clean up"}}}` + "\n",
		},
		{
			// Gemini 0.61 reads no additionalContext on BeforeTool.
			name: "context is not read before a tool", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Context: "careful", SystemMessage: "checked"},
			stdout:  `{"systemMessage":"checked"}` + "\n",
		},
		{
			name: "stop", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Stop: true, StopReason: "budget spent"},
			stdout:  `{"continue":false,"stopReason":"budget spent"}` + "\n",
		},
		{
			name: "no match", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionNone},
		},
		{
			name:    "file tools get Claude names",
			payload: geminiBase("BeforeTool") + `,"tool_name":"replace","tool_input":{"file_path":"a.go","old_string":"x","new_string":"y","instruction":"fix"}}`, canon: "pre_tool_call",
			fields: map[string]any{"tool_name": "Edit", "tool_input": map[string]any{"file_path": "a.go", "old_string": "x", "new_string": "y", "instruction": "fix"}},
		},
		{
			name:    "mcp tool passes through",
			payload: geminiBase("BeforeTool") + `,"tool_name":"mcp_github_create_issue","tool_input":{"title":"x"},"mcp_context":{"server_name":"github","tool_name":"create_issue"}}`, canon: "pre_tool_call",
			fields: map[string]any{"tool_name": "mcp_github_create_issue", "mcp_context": map[string]any{"server_name": "github", "tool_name": "create_issue"}},
		},
		{
			name: "deny", payload: pre, canon: "pre_tool_call", deny: "guard unreachable",
			stdout: `{"decision":"deny","reason":"guard unreachable"}` + "\n",
		},
		{
			name: "invalid stdin", payload: `{"hook_event_name":`, event: "BeforeTool", canon: "pre_tool_call", notJSON: true,
			deny:   "payload unreadable",
			stdout: `{"decision":"deny","reason":"payload unreadable"}` + "\n",
		},
		{
			name: "invalid stdin, no event", payload: `not json`, notJSON: true, deny: "x",
		},
		{
			name:    "unknown event",
			payload: geminiBase("BeforeToolSelection") + `,"llm_request":{"model":"gemini-2.5-flash","messages":[]}}`, canon: "",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "x"},
		},
		{
			name: "after tool feedback replaces the result", payload: post, canon: "post_tool_call",
			fields:  map[string]any{"tool_name": "Read", "result": "package a", "tool_response": map[string]any{"llmContent": "package a", "returnDisplay": "Read a.go"}},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "secret in file"},
			stdout:  `{"decision":"deny","reason":"secret in file"}` + "\n",
		},
		{
			name: "after tool context", payload: post, canon: "post_tool_call",
			outcome: protocol.Outcome{Context: "see log"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"AfterTool","additionalContext":"see log"}}` + "\n",
		},
		{
			// Gemini takes no replacement result.
			name: "after tool result not replaced", payload: post, canon: "post_tool_call",
			outcome: protocol.Outcome{Result: &res},
		},
		{
			name:    "after tool parts",
			payload: geminiBase("AfterTool") + `,"tool_name":"run_shell_command","tool_input":{"command":"ls"},"tool_response":{"llmContent":[{"text":"a\n"},{"text":"b"}],"returnDisplay":"a b"}}`, canon: "post_tool_call",
			fields: map[string]any{"tool_name": "Bash", "result": "a\nb"},
		},
		{
			name: "after tool stop", payload: post, canon: "post_tool_call",
			outcome: protocol.Outcome{Stop: true, StopReason: "enough"},
			stdout:  `{"continue":false,"stopReason":"enough"}` + "\n",
		},
		{
			name: "prompt refused", payload: prompt, canon: "pre_llm_call",
			fields:  map[string]any{"prompt": "deploy it", "user_message": "deploy it"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "not on Friday"},
			stdout:  `{"decision":"deny","reason":"not on Friday"}` + "\n",
		},
		{
			name: "prompt context", payload: prompt, canon: "pre_llm_call",
			outcome: protocol.Outcome{Context: "repo uses tabs", InjectSystem: "be brief"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"BeforeAgent","additionalContext":"repo uses tabs\n\nbe brief"}}` + "\n",
		},
		{
			// continue:false keeps the prompt in the history, unlike deny.
			name: "prompt stop", payload: prompt, canon: "pre_llm_call",
			outcome: protocol.Outcome{Stop: true, StopReason: "quota"},
			stdout:  `{"continue":false,"stopReason":"quota"}` + "\n",
		},
		{
			name: "after agent keeps going", payload: after, canon: "pre_verify",
			fields:  map[string]any{"final_response": "done", "last_assistant_message": "done", "stop_hook_active": false},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "run the tests first"},
			stdout:  `{"decision":"deny","reason":"run the tests first"}` + "\n",
		},
		{
			name: "after agent context is not read", payload: after, canon: "pre_verify",
			outcome: protocol.Outcome{Context: "x"},
		},
		{
			name: "after agent stops", payload: after, canon: "pre_verify",
			outcome: protocol.Outcome{Stop: true, StopReason: "done for today", SystemMessage: "bye"},
			stdout:  `{"continue":false,"stopReason":"done for today","systemMessage":"bye"}` + "\n",
		},
		{
			name:    "session start context",
			payload: geminiBase("SessionStart") + `,"source":"startup"}`, canon: "on_session_start",
			fields:  map[string]any{"source": "startup"},
			outcome: protocol.Outcome{Context: "branch main", SystemMessage: "hello"},
			stdout:  `{"systemMessage":"hello","hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"branch main"}}` + "\n",
		},
		{
			name:    "session end reads a message only",
			payload: geminiBase("SessionEnd") + `,"reason":"exit"}`, canon: "on_session_end",
			fields:  map[string]any{"reason": "exit"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Stop: true, Context: "x", SystemMessage: "bye"},
			stdout:  `{"systemMessage":"bye"}` + "\n",
		},
		{
			name:    "pre compress cannot refuse",
			payload: geminiBase("PreCompress") + `,"trigger":"auto"}`, canon: "PreCompact",
			fields:  map[string]any{"trigger": "auto"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "save first"},
		},
		{
			name:    "notification",
			payload: geminiBase("Notification") + `,"notification_type":"ToolPermission","message":"Tool Shell requires execution","details":{"type":"exec","title":"Shell","command":"ls","rootCommand":"ls"}}`, canon: "Notification",
			fields:  map[string]any{"notification_type": "ToolPermission", "message": "Tool Shell requires execution"},
			outcome: protocol.Outcome{SystemMessage: "noted"},
			stdout:  `{"systemMessage":"noted"}` + "\n",
		},
		{
			name:    "before model observes",
			payload: geminiBase("BeforeModel") + `,"llm_request":{"model":"gemini-2.5-flash","messages":[{"role":"user","content":"hi"}],"config":{}}}`, canon: "pre_api_request",
			fields: map[string]any{"model": "gemini-2.5-flash"},
		},
	})
}

// TestGeminiInstallEvents: install registers only served events, and none
// that fires per streamed chunk.
func TestGeminiInstallEvents(t *testing.T) {
	for _, ev := range gemini.HookFile.Events {
		if _, ok := gemini.Canonical(ev); !ok {
			t.Errorf("install registers %s, which has no canonical twin", ev)
		}
		if ev == "AfterModel" || ev == "BeforeToolSelection" {
			t.Errorf("install registers %s", ev)
		}
	}
}

// TestGeminiGoldenEveryEvent: per Gemini event, what the cases above show
// for one: no match writes nothing, and a decision or rewrite the event
// does not read (ask, allow, tool_input: BeforeTool only) is left out
// rather than sent to a Gemini CLI that would ignore or misread it.
func TestGeminiGoldenEveryEvent(t *testing.T) {
	var cases []wireCase
	for _, ev := range []string{"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel", "AfterModel", "SessionStart", "SessionEnd", "PreCompress", "Notification"} {
		e, ok := gemini.Canonical(ev)
		if !ok {
			t.Fatalf("%s has no canonical twin", ev)
		}
		canon := e.Name
		payload := geminiBase(ev) + `,"tool_name":"run_shell_command","tool_input":{"command":"ls"}}`
		cases = append(cases, wireCase{name: ev + "/no match", payload: payload, canon: canon})
		if ev == "BeforeTool" {
			continue // its ask, allow and rewrite: TestGeminiGolden
		}
		cases = append(cases,
			wireCase{name: ev + "/ask is not read", payload: payload, canon: canon,
				outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?"}},
			wireCase{name: ev + "/allow is not written", payload: payload, canon: canon,
				outcome: protocol.Outcome{Decision: protocol.DecisionAllow, Message: "fine"}},
			wireCase{name: ev + "/rewrite is not read", payload: payload, canon: canon,
				outcome: protocol.Outcome{Args: map[string]any{"command": "ls -l"}}},
		)
	}
	runWireCases(t, gemini, cases)
}
