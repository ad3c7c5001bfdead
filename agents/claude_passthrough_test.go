package agents

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// TestClaudeReplyPassesThrough: what a Claude hook wrote that hermes-hooks
// folds but does not model reaches Claude Code as the hook wrote it:
// PermissionRequest's interrupt and updatedPermissions, a structured
// updatedToolOutput (or the legacy updatedMCPToolOutput, under its own
// name), terminalSequence; and WorktreeCreate is answered as Claude Code
// reads it, the path on stdout or a failing exit.
func TestClaudeReplyPassesThrough(t *testing.T) {
	qwen, _ := Lookup("qwen")
	perm := `{"hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"ls"}}`
	post := `{"hook_event_name":"PostToolUse","tool_name":"mcp__x__y","tool_input":{},"tool_response":[]}`
	worktree := `{"hook_event_name":"WorktreeCreate","name":"feature"}`
	obj := map[string]any{"zeta": 1, "alpha": []any{1, 2}}
	cases := []struct {
		name    string
		agent   *Agent
		payload string
		outcome protocol.Outcome
		stdout  string
		stderr  string
		exit    int
	}{
		{"deny with interrupt", claude, perm,
			protocol.Outcome{Decision: protocol.DecisionBlock, Message: "nope", HookSpecific: map[string]any{"decision": map[string]any{"interrupt": true}}},
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"deny","message":"nope","interrupt":true}}}` + "\n", "", 0},
		{"allow with updatedPermissions", claude, perm,
			protocol.Outcome{Decision: protocol.DecisionAllow, Args: map[string]any{"command": "ls -l"},
				HookSpecific: map[string]any{"decision": map[string]any{"updatedPermissions": []any{map[string]any{"type": "setMode", "mode": "acceptEdits"}}}}},
			`{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{"command":"ls -l"},"updatedPermissions":[{"mode":"acceptEdits","type":"setMode"}]}}}` + "\n", "", 0},
		{"no decision: its members are not written alone", claude, perm,
			protocol.Outcome{HookSpecific: map[string]any{"decision": map[string]any{"interrupt": true}}}, "", "", 0},
		{"nor by an agent that shares the shape", qwen, perm,
			protocol.Outcome{HookSpecific: map[string]any{"decision": map[string]any{"interrupt": true}}}, "", "", 0},
		{"structured updatedToolOutput", claude, post,
			protocol.Outcome{Result: ptrTo(`{"alpha":[1,2],"zeta":1}`), HookSpecific: map[string]any{"updatedToolOutput": obj}},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"alpha":[1,2],"zeta":1}}}` + "\n", "", 0},
		{"legacy updatedMCPToolOutput keeps its name", claude, post,
			protocol.Outcome{Result: ptrTo(`["x"]`), HookSpecific: map[string]any{"updatedMCPToolOutput": []any{"x"}}},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":["x"]}}` + "\n", "", 0},
		{"text updatedToolOutput", claude, post, protocol.Outcome{Result: ptrTo("redacted")},
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"redacted"}}` + "\n", "", 0},
		{"terminalSequence", claude, `{"hook_event_name":"Notification","message":"m"}`,
			protocol.Outcome{TerminalSequence: "\x1b]9;done\x07"}, `{"terminalSequence":"\u001b]9;done\u0007"}` + "\n", "", 0},
		{"terminalSequence in the documented order", claude, `{"hook_event_name":"Stop"}`,
			protocol.Outcome{Decision: protocol.DecisionBlock, Message: "go on", SystemMessage: "s", TerminalSequence: "\x07"},
			`{"systemMessage":"s","terminalSequence":"\u0007","decision":"block","reason":"go on"}` + "\n", "", 0},
		{"worktree path as plain stdout", claude, worktree, protocol.Outcome{Result: ptrTo("/w/feature")}, "/w/feature\n", "", 0},
		{"worktree path as hookSpecificOutput", claude, worktree, protocol.Outcome{HookSpecific: map[string]any{"worktreePath": "/w/feature"}},
			`{"hookSpecificOutput":{"hookEventName":"WorktreeCreate","worktreePath":"/w/feature"}}` + "\n", "", 0},
		{"worktree creation fails", claude, worktree, protocol.Outcome{Decision: protocol.DecisionBlock, Message: "cannot create"},
			"", "cannot create\n", 1},
		{"a failed hook: on stderr, stdout is for the path", claude, worktree,
			protocol.Outcome{Hooks: []protocol.HookReport{{Command: "slow.sh", Ran: true, TimedOut: true}}},
			"", "hermes-hooks: hook slow.sh failed: timed out\n", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := tc.agent.Decode([]byte(tc.payload), "")
			if err != nil || c.Event == nil {
				t.Fatalf("Decode = %+v, %v", c, err)
			}
			o := tc.outcome
			o.Event = c.Event.Name
			r := tc.agent.Encode(c, &o)
			if string(r.Stdout) != tc.stdout || string(r.Stderr) != tc.stderr || r.Exit != tc.exit {
				t.Errorf("reply = exit %d stdout %q stderr %q\nwant exit %d stdout %q stderr %q", r.Exit, r.Stdout, r.Stderr, tc.exit, tc.stdout, tc.stderr)
			}
		})
	}
}

func ptrTo(s string) *string { return &s }
