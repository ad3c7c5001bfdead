package agents

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Payloads as Factory Droid writes them: the fields of its hooks reference
// (https://docs.factory.ai/reference/hooks-reference, "Hook Input"), in the
// order droid 0.225.2 builds them (its bundled hook calls).
const (
	fBase   = `"session_id":"f3a1","transcript_path":"/h/.factory/sessions/f3a1.jsonl","cwd":"/p","permission_mode":"default",`
	fPre    = `{` + fBase + `"hook_event_name":"PreToolUse","tool_name":"Execute","tool_input":{"command":"rm -rf /p/build","riskLevel":"high","riskLevelReason":"deletes"}}`
	fEdit   = `{` + fBase + `"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":{"file_path":"/p/a.go","old_str":"x","new_str":"y"}}`
	fPost   = `{` + fBase + `"hook_event_name":"PostToolUse","tool_name":"Create","tool_input":{"file_path":"/p/b.txt","content":"c"},"tool_response":{"success":true}}`
	fPrompt = `{` + fBase + `"hook_event_name":"UserPromptSubmit","message_id":"m1","prompt":"deploy it","has_images":false}`
	fStop   = `{` + fBase + `"hook_event_name":"Stop","message_id":"m2","stop_hook_active":false,"tool_execution_count":3,"elapsed_time":4200}`
	fSub    = `{` + fBase + `"hook_event_name":"SubagentStop","task_name":"review","task_result":"looks fine","stop_hook_active":false}`
	fStart  = `{` + fBase + `"hook_event_name":"SessionStart","source":"startup","CLAUDE_ENV_FILE":"/h/.factory/temp/env/droid-env-f3a1.sh"}`
	fComp   = `{` + fBase + `"hook_event_name":"PreCompact","trigger":"auto","custom_instructions":"","message_count":40,"estimated_tokens":90000}`
)

func TestFactoryGolden(t *testing.T) {
	res := "[redacted]"
	runWireCases(t, factory(t), []wireCase{
		// PreToolUse: permissionDecision, as Claude Code.
		{
			name: "block", payload: fPre, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "Bash", "session_id": "f3a1", "tool_input": map[string]any{"command": "rm -rf /p/build", "riskLevel": "high", "riskLevelReason": "deletes"}},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no rm -rf"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no rm -rf"}}` + "\n",
		},
		{
			name: "ask", payload: fPre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"sure?"}}` + "\n",
		},
		{
			name: "allow", payload: fPre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAllow},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}` + "\n",
		},
		{
			// Droid applies updatedInput alone too, without skipping its
			// own permission check.
			name: "rewrite", payload: fPre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Args: map[string]any{"command": "rm -ri /p/build"}},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"rm -ri /p/build"}}}` + "\n",
		},
		{
			name: "edit input in Claude's names, rewrite back in Droid's", payload: fEdit, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "Edit", "tool_input": map[string]any{"file_path": "/p/a.go", "old_str": "x", "new_str": "y", "old_string": "x", "new_string": "y"}},
			outcome: protocol.Outcome{Decision: protocol.DecisionAllow, Args: map[string]any{"file_path": "/p/a.go", "old_string": "x", "new_string": "z"}},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"/p/a.go","new_str":"z","old_str":"x"}}}` + "\n",
		},
		{
			// Droid reads no additionalContext on PreToolUse.
			name: "context", payload: fPre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Context: "careful", SystemMessage: "checked"},
			stdout:  `{"systemMessage":"checked"}` + "\n",
		},
		{
			name: "stop", payload: fPre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Stop: true, StopReason: "budget spent"},
			stdout:  `{"continue":false,"stopReason":"budget spent"}` + "\n",
		},
		{name: "no match", payload: fPre, canon: "pre_tool_call", outcome: protocol.Outcome{Decision: protocol.DecisionNone}},
		{
			name: "invalid stdin", payload: `{"hook_event_name":"PreToolUse",`, event: "PreToolUse", canon: "pre_tool_call", notJSON: true,
			deny:   "payload unreadable",
			stdout: `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"payload unreadable"}}` + "\n",
		},
		{name: "invalid stdin, no event", payload: `[]`, notJSON: true, deny: "x"},
		{name: "unknown event", payload: `{"hook_event_name":"PermissionRequest","tool_name":"Execute"}`, canon: "", outcome: protocol.Outcome{Decision: protocol.DecisionBlock}},

		// PostToolUse: decision "block" is not read.
		{
			name: "post block is feedback", payload: fPost, canon: "post_tool_call",
			fields:  map[string]any{"tool_name": "Write"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "lint failed", Context: "see make lint"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint failed\n\nsee make lint"}}` + "\n",
		},
		{
			name: "post rewrite", payload: fPost, canon: "post_tool_call",
			outcome: protocol.Outcome{Result: &res},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"A hook rewrote this tool's output; use this instead: [redacted]"}}` + "\n",
		},
		{
			name: "post stop", payload: fPost, canon: "post_tool_call",
			outcome: protocol.Outcome{Stop: true},
			stdout:  `{"continue":false,"stopReason":"Stopped by hook"}` + "\n",
		},

		// UserPromptSubmit: continue:false refuses the prompt.
		{
			name: "prompt block", payload: fPrompt, canon: "pre_llm_call",
			fields:  map[string]any{"user_message": "deploy it"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no deploys on Friday"},
			stdout:  `{"continue":false,"stopReason":"no deploys on Friday"}` + "\n",
		},
		{
			name: "prompt context", payload: fPrompt, canon: "pre_llm_call",
			outcome: protocol.Outcome{Context: "branch main", InjectUser: "be brief"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit","additionalContext":"branch main\n\nbe brief"}}` + "\n",
		},

		// Stop: decision "block" keeps Droid going, continue:false stops it.
		{
			name: "stop block keeps going", payload: fStop, canon: "pre_verify",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "tests fail", SystemMessage: "again"},
			stdout:  `{"systemMessage":"again","decision":"block","reason":"tests fail"}` + "\n",
		},
		{
			name: "stop stop", payload: fStop, canon: "pre_verify",
			outcome: protocol.Outcome{Stop: true, StopReason: "done for today"},
			stdout:  `{"continue":false,"stopReason":"done for today"}` + "\n",
		},
		{
			// SubagentStop's reply is not read by droid 0.225.
			name: "subagent stop", payload: fSub, canon: "subagent_stop",
			fields:  map[string]any{"child_summary": "looks fine"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "x"},
		},

		// SessionStart context, PreCompact's exit 2.
		{
			name: "session start context", payload: fStart, canon: "on_session_start",
			outcome: protocol.Outcome{Context: "on call: ana"},
			stdout:  `{"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":"on call: ana"}}` + "\n",
		},
		{
			name: "precompact block", payload: fComp, canon: "PreCompact",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "not now"},
			exit:    2, stderr: "not now\n",
		},
		{name: "precompact allow", payload: fComp, canon: "PreCompact", outcome: protocol.Outcome{Decision: protocol.DecisionNone}},
		{
			name: "notification is not read", payload: `{` + fBase + `"hook_event_name":"Notification","message":"waiting","notification_type":"idle"}`, canon: "Notification",
			outcome: protocol.Outcome{SystemMessage: "x"},
		},
	})
}

// TestFactoryEventTable: droid 0.225's hook event enum, every one served,
// and install registers only events whose reply Droid reads.
func TestFactoryEventTable(t *testing.T) {
	a := factory(t)
	enum := []string{"PreToolUse", "PostToolUse", "Notification", "UserPromptSubmit", "Stop", "SubagentStop", "PreCompact", "SessionStart", "SessionEnd"}
	for _, n := range enum {
		if _, ok := a.Canonical(n); !ok {
			t.Errorf("Droid event %s is not served", n)
		}
	}
	if len(a.Events) != len(enum) {
		t.Errorf("%d events mapped, want %d", len(a.Events), len(enum))
	}
	for _, n := range a.HookFile.Events {
		if _, ok := a.Canonical(n); !ok {
			t.Errorf("install registers %s, which is not served", n)
		}
	}
}

func factory(t *testing.T) *Agent {
	t.Helper()
	a, ok := Lookup("factory")
	if !ok {
		t.Fatal("no factory agent")
	}
	return a
}

// FuzzFactory: any Droid payload decodes without panicking; the reply is
// JSON on exit 0 or, on PreCompact only, exit 2 with a reason; a refused
// tool call is denied.
func FuzzFactory(f *testing.F) {
	for _, s := range []string{fPre, fEdit, fPost, fPrompt, fStop, fSub, fStart, fComp,
		`{"hook_event_name":"PreToolUse","tool_name":"Edit","tool_input":[1]}`, `{"hook_event_name":7}`} {
		f.Add(s, true, true)
	}
	a, _ := Lookup("factory")
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
			o.Args = map[string]any{"command": "x", "old_string": "a"}
		}
		r := a.Encode(c, o)
		if r.Exit == 2 && c.AgentEvent == "PreCompact" && len(r.Stderr) > 0 {
			return
		}
		if r.Exit != 0 || len(r.Stderr) != 0 {
			t.Fatalf("reply %+v", r)
		}
		if len(r.Stdout) > 0 {
			if _, err := pyjson.Decode(r.Stdout); err != nil {
				t.Fatalf("stdout %q is not JSON: %v", r.Stdout, err)
			}
		}
		if block && c.Event.Gating() && !strings.Contains(string(r.Stdout), `"permissionDecision":"deny"`) {
			t.Fatalf("%s reply %s lets a refused call run", c.AgentEvent, r.Stdout)
		}
	})
}
