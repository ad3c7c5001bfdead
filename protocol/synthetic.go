package protocol

import "encoding/json"

// The fields `hermes-hooks test` and doctor fire events with, as Hermes' own
// `hermes hooks test` builds them (the catalog's Synthetic field).

// num keeps numbers as JSON literals, so hooks see 1756000000.0, not 1.756e9.
func num(s string) any { return json.Number(s) }

func synPreToolCall() map[string]any {
	return map[string]any{
		"tool_name": "terminal", "args": map[string]any{"command": "echo hello"},
		"session_id": "test-session", "task_id": "test-task", "tool_call_id": "test-call",
	}
}

func synPostToolCall() map[string]any {
	return map[string]any{
		"tool_name": "terminal", "args": map[string]any{"command": "echo hello"},
		"session_id": "test-session", "task_id": "test-task", "tool_call_id": "test-call",
		"result": `{"output": "hello"}`, "duration_ms": num("42"),
	}
}

func synPreLLMCall() map[string]any {
	return map[string]any{
		"session_id": "test-session", "user_message": "What is the weather?",
		"conversation_history": []any{}, "is_first_turn": true, "model": "gpt-4", "platform": "cli",
	}
}

func synPostLLMCall() map[string]any {
	return map[string]any{"session_id": "test-session", "model": "gpt-4", "platform": "cli"}
}

func synPreVerify() map[string]any {
	return map[string]any{
		"session_id": "test-session", "platform": "cli", "model": "gpt-4", "coding": true,
		"attempt": num("0"), "final_response": "All done — the change is applied.",
		"changed_paths": []any{"src/app.tsx"},
	}
}

func synSessionEnd() map[string]any {
	return map[string]any{
		"session_id": "test-session", "task_id": "test-task", "turn_id": "test-turn",
		"completed": true, "failed": false, "interrupted": false,
		"turn_exit_reason": "text_response(stop)", "model": "gpt-4", "platform": "cli",
	}
}

func synPreAPIRequest() map[string]any {
	return apiRequest(map[string]any{
		"message_count": num("4"), "tool_count": num("12"), "approx_input_tokens": num("2048"),
		"request_char_count": num("8192"), "max_tokens": num("4096"),
	})
}

func synPostAPIRequest() map[string]any {
	return apiRequest(map[string]any{
		"api_duration": num("1.234"), "started_at": num("1756000000.0"), "ended_at": num("1756000001.234"),
		"first_chunk_at": num("1756000000.512"), "finish_reason": "stop", "message_count": num("4"),
		"response_model":          "claude-sonnet-4-6",
		"usage":                   map[string]any{"input_tokens": num("2048"), "output_tokens": num("512")},
		"assistant_content_chars": num("1200"), "assistant_tool_call_count": num("0"), "moa_references": nil,
	})
}

func synAuxiliaryCall() map[string]any {
	return map[string]any{"session_id": "test-session", "aux_task": "title_generation", "api_request_id": "aux-0123abcd", "model": "claude-haiku-4-5"}
}

func synSubagentStop() map[string]any {
	return map[string]any{
		"parent_session_id": "parent-sess", "child_role": nil,
		"child_summary": "Synthetic summary for hooks test", "child_status": "completed",
		"tool_call_history": []any{map[string]any{
			"tool_name": "write_file",
			"tool_input": map[string]any{
				"argument_keys": []any{"content", "path"},
				"targets":       map[string]any{"path": "notes/report.txt"},
			},
			"input_bytes": num("128"), "output_bytes": num("32"), "status": "ok",
		}},
		"duration_ms": num("1234"),
	}
}

func synSessionOnly() map[string]any { return map[string]any{"session_id": "test-session"} }

// The gateway events carry the context keys Hermes documents for its
// gateway hooks; pre_gateway_dispatch carries the message's fields the
// plugin takes from Hermes' MessageEvent.

func synGatewayStartup() map[string]any {
	return map[string]any{"platforms": []any{"telegram"}}
}

func synGatewaySession() map[string]any {
	return map[string]any{"platform": "telegram", "user_id": "test-user", "session_id": "test-session",
		"session_key": "agent:main:telegram:dm:test-user"}
}

func synAgentStart() map[string]any {
	return map[string]any{"platform": "telegram", "user_id": "test-user", "chat_id": "test-chat",
		"thread_id": "", "chat_type": "dm", "session_id": "test-session", "message": "hello"}
}

func synAgentStep() map[string]any {
	return map[string]any{"platform": "telegram", "user_id": "test-user", "session_id": "test-session",
		"iteration": num("1"), "tool_names": []any{"terminal"}}
}

func synAgentEnd() map[string]any {
	m := synAgentStart()
	m["response"] = "hi"
	return m
}

// synGatewayCommand leaves out "command": the name fired gives it
// (Event.MemberFields), so `hermes-hooks test command:model` fires the
// entries of command:model.
func synGatewayCommand() map[string]any {
	return map[string]any{"platform": "telegram", "user_id": "test-user", "args": ""}
}

func synGatewayDispatch() map[string]any {
	return map[string]any{"platform": "telegram", "chat_id": "test-chat", "chat_type": "dm", "chat_name": "",
		"thread_id": "", "user_id": "test-user", "user_name": "tester", "message_id": "m1", "text": "hello"}
}

func apiRequest(extra map[string]any) map[string]any {
	m := map[string]any{
		"session_id": "test-session", "task_id": "test-task", "platform": "cli",
		"model": "claude-sonnet-4-6", "provider": "anthropic", "base_url": "https://api.anthropic.com",
		"api_mode": "anthropic_messages", "api_call_count": num("1"),
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// SyntheticFields returns the made-up event fields `hermes-hooks test` and
// `doctor` fire the event with: Hermes' own defaults for the events it has
// them for (Event.Synthetic), else {"session_id": "test-session"} with ok
// false. Each call returns a fresh map.
func (e *Event) SyntheticFields() (fields map[string]any, ok bool) {
	if e.Synthetic == nil {
		return synSessionOnly(), false
	}
	return e.Synthetic(), true
}
