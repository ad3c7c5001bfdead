package agents

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Payloads as Qwen Code 0.24.4 writes them: PreToolUse, PostToolUse,
// UserPromptSubmit, Stop and SessionStart recorded from a real `qwen -p`
// run (make e2e's setup); the others built as its hookEventHandler builds
// them (the common fields of createBaseInput, then the event's own).
const (
	qBase   = `"session_id":"9ce0ae13","transcript_path":"/h/.qwen/projects/-p/chats/9ce0ae13.jsonl","cwd":"/p","timestamp":"2026-11-26T01:02:20.191Z","permission_mode":"yolo","prompt_id":"9ce0ae13########0",`
	qPre    = `{` + qBase + `"hook_event_name":"PreToolUse","tool_name":"run_shell_command","tool_input":{"command":"rm -rf /p/marker","description":"e2e","is_background":false},"tool_use_id":"toolu_1795654940190_vcwj0wf3u","tool_call_id":"call_e2e"}`
	qPost   = `{` + qBase + `"hook_event_name":"PostToolUse","tool_name":"run_shell_command","tool_input":{"command":"ls","description":"e2e","is_background":false},"tool_response":{"llmContent":"Command: ls\nOutput: a.txt\nExit Code: 0","returnDisplay":"a.txt"},"tool_use_id":"toolu_1","tool_call_id":"call_e2e","duration_ms":218}`
	qPrompt = `{` + qBase + `"hook_event_name":"UserPromptSubmit","prompt":"deploy it","submitted_prompt":"deploy it"}`
	qStop   = `{` + qBase + `"hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"done","background_tasks":[],"crons":[],"context_usage":0.00005,"context_limit":200000,"input_tokens":10}`
	qStart  = `{` + qBase + `"hook_event_name":"SessionStart","source":"startup","model":"qwen3-coder"}`
	qPerm   = `{` + qBase + `"hook_event_name":"PermissionRequest","tool_name":"run_shell_command","tool_input":{"command":"git push"},"permission_suggestions":null}`
	qFail   = `{` + qBase + `"hook_event_name":"PostToolUseFailure","tool_use_id":"toolu_2","tool_call_id":"call_2","tool_name":"edit","tool_input":{"file_path":"/p/a.go","old_string":"x","new_string":"y"},"error":"old_string not found","is_interrupt":false}`
	qTodo   = `{` + qBase + `"hook_event_name":"TodoCreated","todo_id":"1","todo_content":"write the tests","todo_status":"pending","all_todos":[{"id":"1","content":"write the tests","status":"pending"}],"phase":"validation"}`
	qDone   = `{` + qBase + `"hook_event_name":"TodoCompleted","todo_id":"1","todo_content":"write the tests","previous_status":"in_progress","all_todos":[{"id":"1","content":"write the tests","status":"completed"}],"phase":"validation"}`
)

func TestQwenGolden(t *testing.T) {
	res := "[redacted]"
	runWireCases(t, qwen(t), []wireCase{
		// PreToolUse.
		{
			// continue:false beside the deny: Qwen merges a firing's replies
			// key by key, and a later hook's permissionDecision "allow"
			// replaces ours (e2e TestQwenDenyOutlivesALaterAllow); a
			// continue:false outlives the merge and refuses the call.
			name: "block", payload: qPre, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /p/marker", "description": "e2e", "is_background": false}, "session_id": "9ce0ae13", "tool_call_id": "call_e2e"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no rm -rf"},
			stdout:  `{"continue":false,"stopReason":"no rm -rf","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm -rf"}}` + "\n",
		},
		{
			name: "block without a message", payload: qPre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock},
			stdout:  `{"continue":false,"stopReason":"Blocked by hook","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"Blocked by hook"}}` + "\n",
		},
		{
			// Qwen asks the user in its TUI; where it cannot (headless, a
			// background subagent) it refuses with the reason.
			name: "ask", payload: qPre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "push to main?"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"push to main?"}}` + "\n",
		},
		{
			name: "allow", payload: qPre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAllow},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}` + "\n",
		},
		{
			// Qwen 0.24.4 does not read updatedInput on PreToolUse: the call
			// would run as it was, so it is refused with the rewritten input.
			name: "rewrite is refused with the new input", payload: qPre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAllow, Args: map[string]any{"command": "rm -ri /p/marker"}},
			stdout: `{"continue":false,"stopReason":"a hook rewrote this call, which Qwen Code cannot apply: call the tool again with this input instead: {\"command\":\"rm -ri /p/marker\"}",` +
				`"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":` +
				`"a hook rewrote this call, which Qwen Code cannot apply: call the tool again with this input instead: {\"command\":\"rm -ri /p/marker\"}"}}` + "\n",
		},
		{
			name: "rewrite with a message", payload: qPre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Args: map[string]any{"command": "ls"}, Message: "dry run"},
			stdout: `{"continue":false,"stopReason":"dry run (a hook rewrote this call, which Qwen Code cannot apply: call the tool again with this input instead: {\"command\":\"ls\"})",` +
				`"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":` +
				`"dry run (a hook rewrote this call, which Qwen Code cannot apply: call the tool again with this input instead: {\"command\":\"ls\"})"}}` + "\n",
		},
		{
			name: "context and system message", payload: qPre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Context: "careful", SystemMessage: "checked"},
			stdout:  `{"systemMessage":"checked","hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"careful"}}` + "\n",
		},
		{
			// Qwen cannot stop the agent from PreToolUse (continue:false
			// refuses the call): the call is refused with the stop's reason.
			name: "stop", payload: qPre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Stop: true, StopReason: "budget spent"},
			stdout:  `{"continue":false,"stopReason":"budget spent","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"budget spent"}}` + "\n",
		},
		{name: "no match", payload: qPre, canon: "pre_tool_call", outcome: protocol.Outcome{Decision: protocol.DecisionNone}},
		{
			name: "deny", payload: qPre, canon: "pre_tool_call", deny: "guard unreachable",
			stdout: `{"continue":false,"stopReason":"guard unreachable","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"guard unreachable"}}` + "\n",
		},
		{
			name: "invalid stdin", payload: `{"hook_event_name":"PreToolUse",`, event: "PreToolUse", canon: "pre_tool_call", notJSON: true,
			deny:   "payload unreadable",
			stdout: `{"continue":false,"stopReason":"payload unreadable","hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"payload unreadable"}}` + "\n",
		},
		{name: "invalid stdin, no event", payload: `not json`, notJSON: true, deny: "x"},
		{
			// SessionDelete has no twin: nothing is dispatched or answered.
			name: "unknown event", payload: `{` + qBase + `"hook_event_name":"SessionDelete","deleted_session_id":"old"}`, canon: "",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "x"},
		},
		{
			name:    "edit is Edit",
			payload: `{"hook_event_name":"PreToolUse","tool_name":"edit","tool_input":{"file_path":"/p/a.go","old_string":"x","new_string":"y"}}`, canon: "pre_tool_call",
			fields: map[string]any{"tool_name": "Edit", "tool_input": map[string]any{"file_path": "/p/a.go", "old_string": "x", "new_string": "y"}},
		},
		{
			name:    "write_file is Write",
			payload: `{"hook_event_name":"PreToolUse","tool_name":"write_file","tool_input":{"file_path":"/p/b","content":"c"}}`, canon: "pre_tool_call",
			fields: map[string]any{"tool_name": "Write"},
		},
		{
			name:    "mcp tool passes through",
			payload: `{"hook_event_name":"PreToolUse","tool_name":"mcp__github__create_issue","tool_input":{"title":"x"}}`, canon: "pre_tool_call",
			fields: map[string]any{"tool_name": "mcp__github__create_issue"},
		},

		// PermissionRequest.
		{
			name: "permission block", payload: qPerm, canon: "PermissionRequest",
			fields:  map[string]any{"tool_name": "Bash"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "not today", Context: "x"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"not today"}}}` + "\n",
		},
		{
			// Qwen applies updatedInput with allow here.
			name: "permission allow with a rewrite", payload: qPerm, canon: "PermissionRequest",
			outcome: protocol.Outcome{Decision: protocol.DecisionAllow, Args: map[string]any{"command": "git push -n"}},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"git push -n"}}}}` + "\n",
		},
		{
			name: "permission ask is Qwen's own dialog", payload: qPerm, canon: "PermissionRequest",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?"},
		},
		{
			name: "permission stop interrupts", payload: qPerm, canon: "PermissionRequest",
			outcome: protocol.Outcome{Stop: true, StopReason: "halt"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"halt","interrupt":true}}}` + "\n",
		},

		// PostToolUse: decision "block" is not read, continue:false is.
		{
			name: "post tool feedback is context", payload: qPost, canon: "post_tool_call",
			fields:  map[string]any{"tool_name": "Bash", "result": "Command: ls\nOutput: a.txt\nExit Code: 0", "duration_ms": 218},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "build failed", Context: "see log"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"build failed\n\nsee log"}}` + "\n",
		},
		{
			// No field replaces the output; continue:false puts its
			// stopReason in the output's place.
			name: "post tool result replaced", payload: qPost, canon: "post_tool_call",
			outcome: protocol.Outcome{Result: &res, Context: "secret removed"},
			stdout:  `{"continue":false,"stopReason":"[redacted]\n\nsecret removed"}` + "\n",
		},
		{
			name: "post tool stop", payload: qPost, canon: "post_tool_call",
			outcome: protocol.Outcome{Stop: true, StopReason: "enough", SystemMessage: "stopped"},
			stdout:  `{"continue":false,"stopReason":"enough","systemMessage":"stopped"}` + "\n",
		},
		{
			name: "post tool failure feedback", payload: qFail, canon: "PostToolUseFailure",
			fields:  map[string]any{"tool_name": "Edit", "error": "old_string not found"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "read the file first", Stop: true},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PostToolUseFailure","additionalContext":"read the file first"}}` + "\n",
		},
		{
			name:    "post tool batch stops",
			payload: `{` + qBase + `"hook_event_name":"PostToolBatch","tool_calls":[]}`, canon: "PostToolBatch",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "enough tools", Context: "c"},
			stdout:  `{"decision":"block","reason":"enough tools","hookSpecificOutput":{"hookEventName":"PostToolBatch","additionalContext":"c"}}` + "\n",
		},

		// UserPromptSubmit: Claude Code's reading.
		{
			name: "prompt refused", payload: qPrompt, canon: "pre_llm_call",
			fields:  map[string]any{"prompt": "deploy it", "user_message": "deploy it"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "not on Friday"},
			stdout:  `{"decision":"block","reason":"not on Friday"}` + "\n",
		},
		{
			name: "prompt context", payload: qPrompt, canon: "pre_llm_call",
			outcome: protocol.Outcome{Context: "repo uses tabs", InjectUser: "be brief"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"repo uses tabs\n\nbe brief"}}` + "\n",
		},
		{
			name: "prompt stop", payload: qPrompt, canon: "pre_llm_call",
			outcome: protocol.Outcome{Stop: true, StopReason: "quota"},
			stdout:  `{"continue":false,"stopReason":"quota"}` + "\n",
		},
		{
			name:    "prompt expansion refused",
			payload: `{` + qBase + `"hook_event_name":"UserPromptExpansion","command_name":"deploy","command_args":"","prompt":"p"}`, canon: "UserPromptExpansion",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no"},
			stdout:  `{"decision":"block","reason":"no"}` + "\n",
		},

		// Context events.
		{
			name: "session start context", payload: qStart, canon: "on_session_start",
			fields:  map[string]any{"source": "startup", "model": "qwen3-coder"},
			outcome: protocol.Outcome{Context: "branch main", Decision: protocol.DecisionBlock, Message: "x"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"branch main"}}` + "\n",
		},
		{
			name:    "subagent start context",
			payload: `{` + qBase + `"hook_event_name":"SubagentStart","agent_id":"a1","agent_type":"Explore"}`, canon: "subagent_start",
			fields:  map[string]any{"agent_type": "Explore"},
			outcome: protocol.Outcome{Context: "stay in src/"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"SubagentStart","additionalContext":"stay in src/"}}` + "\n",
		},
		{
			// Qwen reads PreCompact's context as instructions for the
			// compaction, and no refusal.
			name:    "pre compact",
			payload: `{` + qBase + `"hook_event_name":"PreCompact","trigger":"auto","custom_instructions":""}`, canon: "PreCompact",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no", Context: "keep the plan"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreCompact","additionalContext":"keep the plan"}}` + "\n",
		},

		// Stop: a block keeps the agent going; continue:false would too.
		{
			name: "stop keeps going", payload: qStop, canon: "pre_verify",
			fields:  map[string]any{"final_response": "done", "stop_hook_active": false},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "run the tests first", Context: "x"},
			stdout:  `{"decision":"block","reason":"run the tests first"}` + "\n",
		},
		{
			name: "stop stops: nothing that would keep it going", payload: qStop, canon: "pre_verify",
			outcome: protocol.Outcome{Stop: true, StopReason: "done for today", SystemMessage: "bye"},
			stdout:  `{"systemMessage":"bye"}` + "\n",
		},
		{
			name:    "subagent stop keeps going",
			payload: `{` + qBase + `"hook_event_name":"SubagentStop","stop_hook_active":true,"agent_id":"a1","agent_type":"Explore","agent_transcript_path":"/t","last_assistant_message":"half"}`, canon: "subagent_stop",
			fields:  map[string]any{"child_summary": "half", "stop_hook_active": true},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock},
			stdout:  `{"decision":"block","reason":"Blocked by hook"}` + "\n",
		},

		// Todo events: Claude Code's TaskCreated and TaskCompleted.
		{
			name: "todo created refused", payload: qTodo, canon: "TaskCreated",
			fields:  map[string]any{"task_id": "1", "task_subject": "write the tests", "todo_status": "pending", "phase": "validation"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "too vague", Context: "x"},
			stdout:  `{"decision":"block","reason":"too vague"}` + "\n",
		},
		{
			name: "todo created stop refuses", payload: qTodo, canon: "TaskCreated",
			outcome: protocol.Outcome{Stop: true, StopReason: "halt"},
			stdout:  `{"decision":"block","reason":"halt"}` + "\n",
		},
		{name: "todo created allowed", payload: qTodo, canon: "TaskCreated", outcome: protocol.Outcome{Decision: protocol.DecisionAllow, Context: "x"}},
		{
			name: "todo completed refused", payload: qDone, canon: "TaskCompleted",
			fields:  map[string]any{"task_id": "1", "previous_status": "in_progress"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock},
			stdout:  `{"decision":"block","reason":"Blocked by hook"}` + "\n",
		},
		{
			// After the write Qwen ignores a refusal: not dispatched, so a
			// hook runs once per item, as under Claude Code.
			name: "todo after the write is not dispatched", payload: `{"hook_event_name":"TodoCreated","todo_id":"1","phase":"postWrite"}`, canon: "",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "x"},
		},
		{
			name: "todo after the write, refused by a fail-closed guard", payload: `{"hook_event_name":"TodoCompleted","todo_id":"1","phase":"postWrite"}`, canon: "",
			deny: "x",
		},

		// Observers: systemMessage only.
		{
			name:    "session end",
			payload: `{` + qBase + `"hook_event_name":"SessionEnd","reason":"prompt_input_exit"}`, canon: "on_session_end",
			fields:  map[string]any{"reason": "prompt_input_exit"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "x", Context: "c", SystemMessage: "bye"},
			stdout:  `{"systemMessage":"bye"}` + "\n",
		},
		{
			name:    "notification",
			payload: `{` + qBase + `"hook_event_name":"Notification","message":"Qwen Code needs your permission to use Shell","notification_type":"permission_prompt","title":"Permission needed"}`, canon: "Notification",
			outcome: protocol.Outcome{Context: "c"},
		},
		{
			name:    "stop failure reads nothing",
			payload: `{` + qBase + `"hook_event_name":"StopFailure","error":"rate_limit"}`, canon: "StopFailure",
			outcome: protocol.Outcome{SystemMessage: "x"},
		},
	})
}

// TestQwenMatcher: an alias of a tool in a Qwen matcher (display name,
// Claude Code's name) becomes the runtime id its hooks see, anchored, and
// the matcher is kept as the unanchored regex Qwen also tests
// (TestQwenMatcherMatches: what they select).
func TestQwenMatcher(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"run_shell_command", "(?:run_shell_command)"},
		{"Bash", "^(?:run_shell_command)$|(?:Bash)"},
		{"Shell", "^(?:run_shell_command)$|(?:Shell)"},
		{"write_file|Edit", "^(?:edit)$|(?:write_file|Edit)"},
		{"WriteFile, ReadFile", "(?:WriteFile, ReadFile)"}, // no "|": one regex
		{"Task", "^(?:agent)$|(?:Task)"},
		{"mcp__github__create_issue", "(?:mcp__github__create_issue)"},
		{"*", "*"},
		{" .* ", "*"},
		{"", ""},
		{"^run_shell_command$", "(?:^run_shell_command$)"},
		{"Bash|(", "^(?:run_shell_command)$"}, // an invalid regex: the aliases only
		{"(", "("},                            // hookconfig: never matches
	} {
		if got := qwen(t).Source.Matcher("PreToolUse", tc.in); got != tc.want {
			t.Errorf("matcher %q = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestClaudeRenamedCodec: a firing from another host reaches a Qwen or
// Droid settings file's hook with that agent's event, tool name and input
// keys; its matcher sees the agent's tool name; its reply reads as Claude
// Code's.
func TestClaudeRenamedCodec(t *testing.T) {
	pre, _ := protocol.Lookup("pre_tool_call")
	env := protocol.PayloadEnv{Cwd: "/w"}
	hermes := map[string]any{"tool_name": "terminal", "args": map[string]any{"command": "rm -rf /"}, "session_id": "s"}
	edit := map[string]any{"tool_name": "Edit", "tool_input": map[string]any{"file_path": "a", "old_string": "x", "new_string": "y"}}
	for _, tc := range []struct {
		agent, declared string
		fields          map[string]any
		want            []string
		subject         string
	}{
		{"qwen", "PreToolUse", hermes, []string{`"hook_event_name":"PreToolUse"`, `"tool_name":"run_shell_command"`, `"command":"rm -rf /"`}, "run_shell_command"},
		{"factory", "PreToolUse", hermes, []string{`"tool_name":"Execute"`}, "Execute"},
		{"factory", "PreToolUse", edit, []string{`"tool_name":"Edit"`, `"old_str":"x"`, `"new_str":"y"`}, "Edit"},
		{"qwen", "PreToolUse", map[string]any{"tool_name": "mcp__s__t"}, []string{`"tool_name":"mcp__s__t"`}, "mcp__s__t"},
	} {
		c := mustAgent(tc.agent).Source.Codec
		got := string(c.Payload(tc.declared, pre, tc.fields, env))
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s payload lacks %s:\n%s", tc.agent, w, got)
			}
		}
		if strings.Contains(got, "old_string") {
			t.Errorf("%s payload keeps Claude's Edit keys: %s", tc.agent, got)
		}
		if s, ok := c.MatchSubject(tc.declared, pre, tc.fields, nil); !ok || s != tc.subject {
			t.Errorf("%s subject = %q, %v; want %q", tc.agent, s, ok, tc.subject)
		}
	}
	if edit["tool_input"].(map[string]any)["old_string"] != "x" {
		t.Error("the payload modified the host's fields")
	}
	r := protocol.Reply{Dialect: "qwen", Event: pre, Command: "g",
		Stdout: []byte(`{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no"}}`)}
	if c, _ := parseReply(qwen(t).Source.Codec, "PreToolUse", r); c == nil || c.Decision != protocol.DecisionBlock || c.Message != "no" {
		t.Errorf("deny read as %+v", c)
	}
	if v := mustAgent("factory").Source.Codec.ProjectVars(); len(v) != 3 || v[0] != "FACTORY_PROJECT_DIR" {
		t.Errorf("factory project vars %v", v)
	}
}

// TestQwenEventTable: every Qwen 0.24.4 event (its HookEventName enum) is
// served, except SessionDelete; what install registers is served.
func TestQwenEventTable(t *testing.T) {
	a := qwen(t)
	qwenEnum := []string{"PreToolUse", "PostToolUse", "PostToolUseFailure", "PostToolBatch", "Notification",
		"UserPromptSubmit", "UserPromptExpansion", "SessionStart", "Stop", "MessageDisplay", "SubagentStart",
		"SubagentStop", "PreCompact", "PostCompact", "SessionEnd", "SessionDelete", "PermissionRequest",
		"PermissionDenied", "StopFailure", "TodoCreated", "TodoCompleted", "InstructionsLoaded"}
	for _, n := range qwenEnum {
		if _, ok := a.Canonical(n); ok == (n == "SessionDelete") {
			t.Errorf("Qwen event %s: served = %v", n, ok)
		}
	}
	if len(a.Events) != len(qwenEnum)-1 {
		t.Errorf("%d events mapped, want %d", len(a.Events), len(qwenEnum)-1)
	}
	for _, n := range a.HookFile.Events {
		if _, ok := a.Canonical(n); !ok {
			t.Errorf("install registers %s, which is not served", n)
		}
	}
	for _, n := range []string{"SessionDelete", "Nope"} {
		if a.UnknownEventWarning(n) == "" {
			t.Errorf("no warning for %s", n)
		}
	}
}

func qwen(t *testing.T) *Agent {
	t.Helper()
	a, ok := Lookup("qwen")
	if !ok {
		t.Fatal("no qwen agent")
	}
	return a
}

// FuzzQwen: any Qwen payload decodes without panicking; whatever the
// outcome, the reply is exit 0 with JSON or nothing, a Stop reply never
// carries continue:false (Qwen would keep going), and a refused or
// rewritten tool call is denied (Qwen cannot apply a rewrite), with
// continue:false, which another hook's later "allow" cannot undo.
func FuzzQwen(f *testing.F) {
	for _, s := range []string{qPre, qPost, qPrompt, qStop, qStart, qPerm, qFail, qTodo, qDone,
		`{"hook_event_name":"TodoCreated","phase":"postWrite"}`, `{"hook_event_name":"SessionDelete"}`,
		`{"hook_event_name":"PostToolUse","tool_response":{"llmContent":[{"text":"x"}]}}`, `{"hook_event_name":7}`} {
		f.Add(s, true, true)
	}
	a, _ := Lookup("qwen")
	f.Fuzz(func(t *testing.T, payload string, block, rewrite bool) {
		c, err := a.Decode([]byte(payload), "")
		if err != nil || c.Event == nil {
			return
		}
		res := "r"
		o := &protocol.Outcome{Event: c.Event.Name, Message: "m", Context: "c", Stop: !block, StopReason: "s", Result: &res, SystemMessage: "y"}
		if block {
			o.Decision = protocol.DecisionBlock
		}
		if rewrite {
			o.Args = map[string]any{"command": "x"}
		}
		r := a.Encode(c, o)
		if r.Exit != 0 || len(r.Stderr) != 0 {
			t.Fatalf("reply %+v", r)
		}
		if len(r.Stdout) > 0 {
			if _, err := pyjson.Decode(r.Stdout); err != nil {
				t.Fatalf("stdout %q is not JSON: %v", r.Stdout, err)
			}
		}
		out := string(r.Stdout)
		if c.Event.Stops && strings.Contains(out, `"continue":false`) {
			t.Fatalf("%s reply %s would keep Qwen going", c.AgentEvent, out)
		}
		if c.Event.Gating() && (!strings.Contains(out, `"permissionDecision":"deny"`) || !strings.HasPrefix(out, `{"continue":false,`)) {
			t.Fatalf("%s reply %s lets a refused or rewritten call run", c.AgentEvent, out)
		}
	})
}
