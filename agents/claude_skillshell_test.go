package agents

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// PreSkillShellCommand, Claude Code 2.1.332's gate on the shell commands a
// skill's or slash command's text runs: decoded with its own fields, and
// answered so that Claude Code refuses what it would refuse (ask and a
// changed command become a deny with Claude's own reason).
func TestClaudeSkillShellGolden(t *testing.T) {
	p := `{"session_id":"s1","cwd":"/p","hook_event_name":"PreSkillShellCommand","tool_name":"Bash",` +
		`"tool_input":{"command":"git push --force"},"tool_use_id":"skill-1","command_name":"release",` +
		`"command_source":"projectSettings","invoked_by":"claude"}`
	const hso = `{"hookSpecificOutput":{"hookEventName":"PreSkillShellCommand",`
	runGolden(t, claude, []golden{
		{
			name: "block", payload: p, canon: "PreSkillShellCommand",
			fields: map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "git push --force"},
				"command_name": "release", "command_source": "projectSettings", "invoked_by": "claude"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no force push"},
			stdout:  hso + `"permissionDecision":"deny","permissionDecisionReason":"no force push"}}` + "\n",
		},
		{
			name: "ask refused", payload: p, canon: "PreSkillShellCommand",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?"},
			stdout:  hso + `"permissionDecision":"deny","permissionDecisionReason":"sure?; the hook asked for approval, which a skill can't wait for"}}` + "\n",
		},
		{
			name: "ask refused without a reason", payload: p, canon: "PreSkillShellCommand",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk},
			stdout:  hso + `"permissionDecision":"deny","permissionDecisionReason":"the hook asked for approval, which a skill can't wait for"}}` + "\n",
		},
		{
			name: "allow", payload: p, canon: "PreSkillShellCommand",
			outcome: protocol.Outcome{Decision: protocol.DecisionAllow},
			stdout:  hso + `"permissionDecision":"allow"}}` + "\n",
		},
		{
			name: "updatedInput is a block with its reason", payload: p, canon: "PreSkillShellCommand",
			outcome: protocol.Outcome{Args: map[string]any{"command": "git push"}},
			stdout:  hso + `"permissionDecision":"deny","permissionDecisionReason":"the hook changed the command, which isn't supported here"}}` + "\n",
		},
		{
			name: "a block beside a changed input keeps its reason", payload: p, canon: "PreSkillShellCommand",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no", Args: map[string]any{}},
			stdout:  hso + `"permissionDecision":"deny","permissionDecisionReason":"no"}}` + "\n",
		},
		{
			// The event's reply has no additionalContext: context has no
			// way to the model here, and the reply stays empty.
			name: "context", payload: p, canon: "PreSkillShellCommand",
			outcome: protocol.Outcome{Context: "careful"},
		},
		{
			name: "context beside a block", payload: p, canon: "PreSkillShellCommand",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no", Context: "careful"},
			stdout:  hso + `"permissionDecision":"deny","permissionDecisionReason":"no"}}` + "\n",
		},
		{
			name: "no match", payload: p, canon: "PreSkillShellCommand",
			outcome: protocol.Outcome{Decision: protocol.DecisionNone},
		},
	})
	// A gating event: a payload hermes-hooks cannot read is refused.
	c, _ := claude.Decode([]byte("{garbage"), "PreSkillShellCommand")
	r := claude.Deny(c, "payload unreadable")
	if want := hso + `"permissionDecision":"deny","permissionDecisionReason":"payload unreadable"}}` + "\n"; string(r.Stdout) != want {
		t.Fatalf("Deny = %q, want %q", r.Stdout, want)
	}
}
