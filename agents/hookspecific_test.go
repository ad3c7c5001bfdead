package agents

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// TestHookSpecificPassesThrough (issue 31, item 16): the hookSpecificOutput
// members the hooks wrote that hermes-hooks does not model reach the agents
// that read Claude Code's reply shape, after the members it writes itself
// and never over one; Codex, whose schemas are closed, is not given them.
func TestHookSpecificPassesThrough(t *testing.T) {
	claude, _ := Lookup("claude")
	codex, _ := Lookup("codex")
	factory, _ := Lookup("factory")
	cases := []struct {
		name    string
		agent   *Agent
		payload string
		outcome protocol.Outcome
		stdout  string
	}{
		{"WorktreeCreate's path", claude, `{"hook_event_name":"WorktreeCreate","name":"feature"}`,
			protocol.Outcome{HookSpecific: map[string]any{"worktreePath": "/w/feature"}},
			`{"hookSpecificOutput":{"hookEventName":"WorktreeCreate","worktreePath":"/w/feature"}}` + "\n"},
		{"SessionStart's members after the context, in key order", claude, `{"hook_event_name":"SessionStart","source":"startup"}`,
			protocol.Outcome{Context: "c", HookSpecific: map[string]any{"watchPaths": []any{"a"}, "sessionTitle": "t", "initialUserMessage": "go"}},
			`{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"c","initialUserMessage":"go","sessionTitle":"t","watchPaths":["a"]}}` + "\n"},
		{"PermissionDenied's retry", claude, `{"hook_event_name":"PermissionDenied","tool_name":"Bash","tool_input":{}}`,
			protocol.Outcome{HookSpecific: map[string]any{"retry": true}},
			`{"hookSpecificOutput":{"hookEventName":"PermissionDenied","retry":true}}` + "\n"},
		{"never over a member hermes-hooks writes", claude, `{"hook_event_name":"UserPromptSubmit","prompt":"p"}`,
			protocol.Outcome{Context: "ours", HookSpecific: map[string]any{"hookEventName": "Other", "additionalContext": "theirs", "suppressOriginalPrompt": true}},
			`{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"ours","suppressOriginalPrompt":true}}` + "\n"},
		{"VS Code reads Claude's shape", claude, `{"hookEventName":"SessionStart","sessionId":"s"}`,
			protocol.Outcome{HookSpecific: map[string]any{"sessionTitle": "t"}},
			`{"hookSpecificOutput":{"hookEventName":"SessionStart","sessionTitle":"t"}}` + "\n"},
		{"Factory Droid shares the shape", factory, `{"hook_event_name":"SessionStart","source":"startup"}`,
			protocol.Outcome{HookSpecific: map[string]any{"sessionTitle": "t"}},
			`{"hookSpecificOutput":{"hookEventName":"SessionStart","sessionTitle":"t"}}` + "\n"},
		{"Codex rejects members its schema lacks", codex, `{"hook_event_name":"SessionStart","source":"startup"}`,
			protocol.Outcome{HookSpecific: map[string]any{"sessionTitle": "t"}}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tc.agent.Decode([]byte(tc.payload), "")
			if err != nil || c.Event == nil {
				t.Fatalf("Decode = %+v, %v", c, err)
			}
			o := tc.outcome
			o.Event = c.Event.Name
			if r := tc.agent.Encode(c, &o); string(r.Stdout) != tc.stdout || r.Exit != 0 {
				t.Errorf("reply = exit %d stdout %q\nwant stdout %q", r.Exit, r.Stdout, tc.stdout)
			}
		})
	}
}
