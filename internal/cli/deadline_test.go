package cli

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// hook answers a margin before the agent's deadline: the flag install
// wrote, else the agent's default for the event, else none; a host that
// waits less than the agent (VS Code, 30 s) sets it.
func TestHookDeadline(t *testing.T) {
	claude, _ := agents.Lookup("claude")
	cursor, _ := agents.Lookup("cursor")
	start := time.Now()
	for _, tc := range []struct {
		name    string
		agent   *agents.Agent
		payload string
		event   string
		flag    time.Duration
		want    time.Duration // 0: no deadline
	}{
		{"the flag", claude, `{"hook_event_name":"PreToolUse","session_id":"s"}`, "PreToolUse", 3 * time.Second, 3*time.Second - 300*time.Millisecond},
		{"the agent's default", claude, `{"hook_event_name":"PreToolUse","session_id":"s"}`, "PreToolUse", 0, 595 * time.Second},
		{"the agent's default for the event", claude, `{"hook_event_name":"UserPromptSubmit","session_id":"s"}`, "UserPromptSubmit", 0, 27 * time.Second},
		{"a short deadline keeps a quarter second", claude, `{"hook_event_name":"SessionEnd","session_id":"s"}`, "SessionEnd", 0, 1250 * time.Millisecond},
		{"VS Code waits 30 s for Claude Code's entries", claude, `{"hookEventName":"PreToolUse","sessionId":"s"}`, "PreToolUse", 600 * time.Second, 27 * time.Second},
		{"not documented: none", cursor, `{"hook_event_name":"preToolUse"}`, "preToolUse", 0, 0},
		{"not documented, but the flag", cursor, `{"hook_event_name":"preToolUse"}`, "preToolUse", 10 * time.Second, 9 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			call, err := tc.agent.Decode([]byte(tc.payload), tc.event)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := hookDeadline(start, tc.agent, call, tc.flag)
			defer cancel()
			d, ok := ctx.Deadline()
			switch {
			case tc.want == 0 && ok:
				t.Errorf("deadline in %v; want none", d.Sub(start))
			case tc.want != 0 && (!ok || d.Sub(start) != tc.want):
				t.Errorf("deadline in %v (set: %v); want %v", d.Sub(start), ok, tc.want)
			}
		})
	}
	// Its end names the agent and its timeout as the cause.
	ctx, cancel := hookDeadline(time.Now().Add(-time.Hour), claude, &agents.Call{Agent: claude, AgentEvent: "PreToolUse"}, time.Second)
	defer cancel()
	<-ctx.Done()
	var late *LateError
	if !errors.As(context.Cause(ctx), &late) || late.Agent != "Claude Code" || late.Limit != time.Second {
		t.Errorf("cause = %v; want Claude Code's LateError of 1s", context.Cause(ctx))
	}
}
