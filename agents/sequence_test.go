package agents

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// In a sequential run the next Gemini hook sees what the previous one
// changed, as Gemini CLI 0.61's applyHookOutputToInput feeds it: shown
// here as the next hook's payload.
func TestGeminiNextFields(t *testing.T) {
	env := protocol.PayloadEnv{Cwd: "/w"}
	for _, tc := range []struct {
		name, declared, fields string
		c                      *protocol.Contribution
		want                   string // in the next payload
	}{
		{"tool_input merged, its keys over the input's", "BeforeTool",
			`{"tool_name":"run_shell_command","tool_input":{"command":"make build","description":"d"}}`,
			&protocol.Contribution{Args: map[string]any{"command": "make deploy"}, ReplaceArgs: true},
			`"tool_input":{"command":"make deploy","description":"d"}`},
		{"Hermes host's args", "BeforeTool",
			`{"tool_name":"terminal","args":{"command":"ls","timeout":3}}`,
			&protocol.Contribution{Args: map[string]any{"command": "ls -la"}, ReplaceArgs: true},
			`"tool_input":{"command":"ls -la","timeout":3}`},
		{"a block changes nothing", "BeforeTool",
			`{"tool_name":"run_shell_command","tool_input":{"command":"ls"}}`,
			&protocol.Contribution{Decision: protocol.DecisionBlock, Message: "no"},
			`"tool_input":{"command":"ls"}`},
		{"context after a blank line", "BeforeAgent",
			`{"prompt":"deploy it"}`,
			&protocol.Contribution{Context: "branch main"},
			`"prompt":"deploy it\n\nbranch main"`},
		{"a Hermes host's user_message", "BeforeAgent",
			`{"user_message":"deploy it"}`,
			&protocol.Contribution{Context: "branch main"},
			`"prompt":"deploy it\n\nbranch main"`},
		{"no reply", "BeforeAgent", `{"prompt":"deploy it"}`, nil, `"prompt":"deploy it"`},
		{"context on AfterTool feeds nothing", "AfterTool",
			`{"tool_name":"run_shell_command","tool_input":{"command":"ls"},"result":"x"}`,
			&protocol.Contribution{Context: "c"}, `"tool_input":{"command":"ls"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := pyjson.Decode([]byte(tc.fields))
			if err != nil {
				t.Fatal(err)
			}
			fields := v.(map[string]any)
			ev, _ := gemini.Canonical(tc.declared)
			next := geminiCodec{}.NextFields(tc.declared, ev, fields, tc.c)
			got := string(geminiCodec{}.Payload(tc.declared, ev, next, env))
			if !strings.Contains(got, tc.want) {
				t.Errorf("next payload %s\nwant it to hold %s", got, tc.want)
			}
			if again, _ := pyjson.Decode([]byte(tc.fields)); !equalJSON(again, fields) {
				t.Errorf("NextFields changed the fields it was given: %v", fields)
			}
		})
	}
}

func equalJSON(a, b any) bool {
	return string(pyjson.Encode(a, pyjson.Compact)) == string(pyjson.Encode(b, pyjson.Compact))
}

// Qwen Code feeds the next hook of a sequence its hookSpecificOutput's
// tool_input (not updatedInput) and its context after the prompt.
func TestQwenNextFields(t *testing.T) {
	a := qwen(t)
	q := a.Source.Codec.(protocol.Sequencer)
	pre, _ := a.Canonical("PreToolUse")
	fields := map[string]any{"tool_name": "run_shell_command", "tool_input": map[string]any{"command": "make build", "is_background": false}}
	next := q.NextFields("PreToolUse", pre, fields, &protocol.Contribution{HookSpecific: map[string]any{"tool_input": map[string]any{"command": "make deploy"}}})
	if in, _ := next["tool_input"].(map[string]any); in["command"] != "make deploy" || in["is_background"] != false {
		t.Errorf("PreToolUse next input %v", next["tool_input"])
	}
	if same := q.NextFields("PreToolUse", pre, fields, &protocol.Contribution{Args: map[string]any{"command": "x"}, ReplaceArgs: true}); !equalJSON(same, fields) {
		t.Errorf("an updatedInput fed the next hook: %v", same)
	}
	prompt, _ := a.Canonical("UserPromptSubmit")
	next = q.NextFields("UserPromptSubmit", prompt, map[string]any{"prompt": "hi"}, &protocol.Contribution{Context: "c"})
	if next["prompt"] != "hi\n\nc" {
		t.Errorf("UserPromptSubmit next prompt %q", next["prompt"])
	}
}
