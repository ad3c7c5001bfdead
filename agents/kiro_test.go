package agents

import (
	"errors"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

func TestKiroGolden(t *testing.T) {
	// Payloads as Kiro CLI (Amazon Q Developer CLI's hooks.rs run_hook)
	// builds them: hook_event_name, cwd, then prompt or the tool's fields.
	pre := `{"hook_event_name":"preToolUse","cwd":"/p","tool_name":"execute_bash","tool_input":{"command":"rm -rf /","summary":"clean up"}}`
	edit := `{"hook_event_name":"preToolUse","cwd":"/p","tool_name":"fs_write","tool_input":{"command":"str_replace","path":"/p/a.go","old_str":"x","new_str":"y"}}`
	create := `{"hook_event_name":"preToolUse","cwd":"/p","tool_name":"fs_write","tool_input":{"command":"create","path":"/p/b.go","file_text":"package b"}}`
	post := `{"hook_event_name":"postToolUse","cwd":"/p","tool_name":"fs_read","tool_input":{"path":"/p/a.go","mode":"Line"},"tool_response":{"success":true,"result":["package a"]}}`
	prompt := `{"hook_event_name":"userPromptSubmit","cwd":"/p","prompt":"deploy it"}`
	spawn := `{"hook_event_name":"agentSpawn","cwd":"/p"}`
	stop := `{"hook_event_name":"stop","cwd":"/p"}`
	runWireCases(t, kiro, []wireCase{
		{
			name: "block", payload: pre, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /", "summary": "clean up"}, "cwd": "/p"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no rm -rf"},
			exit:    2, stderr: "no rm -rf\n",
		},
		{
			name: "block without a message", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock},
			exit:    2, stderr: "Blocked by hook\n",
		},
		{
			// Kiro's own tool permissions decide: nothing to say.
			name: "allow", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAllow, Message: "fine"},
		},
		{
			// Kiro cannot ask from a hook: the call is refused, not run
			// unasked (issue 31, item 6).
			name: "ask refuses", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?"},
			exit:    2, stderr: "sure? (hermes-hooks: Kiro CLI cannot ask from a hook; this call is refused)\n",
		},
		{
			name: "stop refuses", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Stop: true, StopReason: "enough"},
			exit:    2, stderr: "enough (hermes-hooks: a hook asked to stop the agent, which Kiro CLI cannot do from a hook; this call is refused)\n",
		},
		{
			name: "a rewrite refuses, with the arguments to retry with", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Args: map[string]any{"command": "true"}},
			exit:    2, stderr: "hermes-hooks: a hook rewrote this call, and Kiro CLI cannot run rewritten arguments; it is refused. Retry with: {\"command\":\"true\"}\n",
		},
		{
			// Kiro drops a preToolUse hook's stdout.
			name: "context is not read before a tool", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Context: "careful", SystemMessage: "checked"},
		},
		{
			name: "no match", payload: pre, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionNone},
		},
		{
			name: "deny", payload: pre, canon: "pre_tool_call", deny: "guard unreachable",
			exit: 2, stderr: "guard unreachable\n",
		},
		{
			name: "fs_write str_replace is Edit", payload: edit, canon: "pre_tool_call",
			fields: map[string]any{"tool_name": "Edit", "tool_input": map[string]any{"command": "str_replace", "path": "/p/a.go", "old_str": "x", "new_str": "y", "file_path": "/p/a.go", "old_string": "x", "new_string": "y"}},
		},
		{
			name: "fs_write create is Write", payload: create, canon: "pre_tool_call",
			fields: map[string]any{"tool_name": "Write", "tool_input": map[string]any{"command": "create", "path": "/p/b.go", "file_text": "package b", "file_path": "/p/b.go", "content": "package b"}},
		},
		{
			// @server/tool is presented as Claude Code names it, so that MCP
			// guards in either spelling see it; its input is left alone.
			name:    "mcp tool in Claude's spelling",
			payload: `{"hook_event_name":"preToolUse","cwd":"/p","tool_name":"@postgres/query","tool_input":{"sql":"DROP TABLE t","path":"x"}}`, canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "mcp__postgres__query", "tool_input": map[string]any{"sql": "DROP TABLE t", "path": "x"}},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no DROP"},
			exit:    2, stderr: "no DROP\n",
		},
		{
			// Kiro reads nothing back after the tool ran.
			name: "post tool: result text, nothing read back", payload: post, canon: "post_tool_call",
			fields:  map[string]any{"tool_name": "Read", "result": "package a", "tool_input": map[string]any{"path": "/p/a.go", "mode": "Line", "file_path": "/p/a.go"}},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "x", Context: "y"},
		},
		{
			name: "prompt context", payload: prompt, canon: "pre_llm_call",
			fields:  map[string]any{"prompt": "deploy it", "user_message": "deploy it"},
			outcome: protocol.Outcome{Context: "staging only", InjectUser: "ticket 42"},
			stdout:  "staging only\n\nticket 42\n",
		},
		{
			name: "prompt block is a warning", payload: prompt, canon: "pre_llm_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no deploys on Friday", Context: "ignored"},
			exit:    1, stderr: "hermes-hooks: no deploys on Friday (Kiro CLI cannot refuse a prompt from a hook: it goes on)\n",
		},
		{
			name: "prompt is not gating", payload: prompt, canon: "pre_llm_call", deny: "guard unreachable",
		},
		{
			name: "spawn context", payload: spawn, canon: "on_session_start",
			fields:  map[string]any{"cwd": "/p"},
			outcome: protocol.Outcome{Context: "branch main"},
			stdout:  "branch main\n",
		},
		{
			// Kiro's stop hook cannot keep the agent going.
			name: "stop", payload: stop, canon: "pre_verify",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "tests fail", Stop: true, Context: "x"},
		},
		{
			name: "unknown event", payload: `{"hook_event_name":"agentNeedsAttention","cwd":"/p"}`, canon: "",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "x"},
		},
		{
			name: "event from the command line", payload: `{"cwd":"/p","tool_name":"execute_bash","tool_input":{"command":"ls"}}`, event: "preToolUse", canon: "pre_tool_call",
			fields: map[string]any{"tool_name": "Bash"},
		},
		// Kiro CLI 3 (V3 harness) names the same events in PascalCase
		// (kiro.dev/docs/cli/v3/hooks: "Case change only", agentSpawn is
		// SessionStart) and adds session_id: a guard runs for them too, and
		// its refusal is the exit code that harness reads.
		{
			name: "V3 PreToolUse block", payload: `{"session_id":"s1","hook_event_name":"PreToolUse","cwd":"/p","tool_name":"shell","tool_input":{"command":"rm -rf /"}}`, event: "preToolUse", canon: "pre_tool_call",
			fields:  map[string]any{"tool_name": "Bash", "tool_input": map[string]any{"command": "rm -rf /"}, "cwd": "/p", "session_id": "s1"},
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no rm -rf"},
			exit:    2, stderr: "no rm -rf\n",
		},
		{
			name: "V3 PreToolUse ask refuses", payload: `{"hook_event_name":"PreToolUse","cwd":"/p","tool_name":"write","tool_input":{"path":"/p/a"}}`, canon: "pre_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionAsk, Message: "sure?"},
			exit:    2, stderr: "sure? (hermes-hooks: Kiro CLI cannot ask from a hook; this call is refused)\n",
		},
		{
			name: "V3 PreToolUse deny", payload: `{"hook_event_name":"PreToolUse","cwd":"/p","tool_name":"shell","tool_input":{"command":"ls"}}`, canon: "pre_tool_call", deny: "guard unreachable",
			exit: 2, stderr: "guard unreachable\n",
		},
		{
			// V3: "2 = block for PreToolUse/UserPromptSubmit".
			name: "V3 UserPromptSubmit block", payload: `{"session_id":"s1","hook_event_name":"UserPromptSubmit","cwd":"/p","prompt":"deploy it"}`, canon: "pre_llm_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "no deploys on Friday"},
			exit:    2, stderr: "no deploys on Friday\n",
		},
		{
			name: "V3 UserPromptSubmit context", payload: `{"hook_event_name":"UserPromptSubmit","cwd":"/p","prompt":"deploy it"}`, canon: "pre_llm_call",
			outcome: protocol.Outcome{Context: "staging only"},
			stdout:  "staging only\n",
		},
		{
			name: "V3 SessionStart context", payload: `{"session_id":"s1","hook_event_name":"SessionStart","cwd":"/p"}`, canon: "on_session_start",
			outcome: protocol.Outcome{Context: "branch main"},
			stdout:  "branch main\n",
		},
		{
			name: "V3 PostToolUse", payload: `{"hook_event_name":"PostToolUse","cwd":"/p","tool_name":"read","tool_input":{"path":"/p/a"}}`, canon: "post_tool_call",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "x"},
		},
		{
			name: "V3 Stop", payload: `{"hook_event_name":"Stop","cwd":"/p"}`, canon: "pre_verify",
			outcome: protocol.Outcome{Decision: protocol.DecisionBlock, Message: "x"},
		},
		{
			name: "invalid stdin", payload: `not json`, event: "preToolUse", canon: "pre_tool_call", notJSON: true,
			deny: "payload unreadable", exit: 2, stderr: "payload unreadable\n",
		},
	})
}

// TestKiroInstallShape: a new agent file gets every tool and flat entries
// without a matcher (every tool) and with a timeout in milliseconds; no
// "version"; uninstall takes the file back to nothing.
func TestKiroInstallShape(t *testing.T) {
	doc, changed, err := kiro.Install(nil, func(ev string) string { return "'/bin/hh' hook kiro " + ev })
	if err != nil || !changed {
		t.Fatalf("Install: changed=%v err=%v", changed, err)
	}
	got := string(pyjson.Encode(doc, pyjson.Compact))
	want := `{"tools":["*"],"hooks":{"agentSpawn":[{"command":"'/bin/hh' hook kiro agentSpawn","timeout_ms":600000}],` +
		`"userPromptSubmit":[{"command":"'/bin/hh' hook kiro userPromptSubmit","timeout_ms":600000}],` +
		`"preToolUse":[{"command":"'/bin/hh' hook kiro preToolUse","timeout_ms":600000}],` +
		`"postToolUse":[{"command":"'/bin/hh' hook kiro postToolUse","timeout_ms":600000}],` +
		`"stop":[{"command":"'/bin/hh' hook kiro stop","timeout_ms":600000}]}}`
	if got != want {
		t.Fatalf("installed:\n%s\nwant\n%s", got, want)
	}
	doc, changed = kiro.Uninstall(doc)
	if !changed || len(doc) != 0 {
		t.Fatalf("Uninstall: changed=%v doc=%s", changed, pyjson.Encode(doc, pyjson.Compact))
	}
	// An agent of the user's keeps its tools when our hooks go.
	user := pyjson.OrderedObject{{Key: "name", Value: "dev"}, {Key: "tools", Value: []any{"*"}}}
	doc, _, _ = kiro.Install(user, func(ev string) string { return "'/bin/hh' hook kiro " + ev })
	doc, _ = kiro.Uninstall(doc)
	if got := string(pyjson.Encode(doc, pyjson.Compact)); got != `{"name":"dev","tools":["*"]}` {
		t.Fatalf("user's agent after uninstall = %s", got)
	}
}

// FuzzKiroDecode: any payload decodes without panicking, and every reply
// is one Kiro reads: exit 0 (text on stdout or nothing), 2 only on
// preToolUse (and Kiro CLI 3's PreToolUse and UserPromptSubmit) with the
// reason on stderr, 1 only for a refused prompt.
func FuzzKiroDecode(f *testing.F) {
	for _, s := range []string{
		`{"hook_event_name":"preToolUse","cwd":"/p","tool_name":"execute_bash","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"preToolUse","tool_name":"fs_write","tool_input":{"command":"insert","path":"a","new_str":"b"}}`,
		`{"hook_event_name":"postToolUse","tool_name":"fs_read","tool_response":{"success":false,"result":"boom"}}`,
		`{"hook_event_name":"userPromptSubmit","prompt":7}`,
		`{"hook_event_name":"agentSpawn"}`, `{"hook_event_name":"stop"}`,
		`{"session_id":"s","hook_event_name":"PreToolUse","tool_name":"shell","tool_input":{"command":"ls"}}`,
		`{"hook_event_name":"UserPromptSubmit","prompt":"p"}`, `{"hook_event_name":"SessionStart"}`,
		`{"tool_input":"x","tool_name":["a"]}`, `not json`, `null`,
	} {
		f.Add(s, "preToolUse")
	}
	f.Fuzz(func(t *testing.T, payload, event string) {
		c, err := kiro.Decode([]byte(payload), event)
		if err != nil && (!errors.Is(err, ErrNotJSON) || c == nil) {
			t.Fatalf("Decode error %v, call %v", err, c)
		}
		if c.Event == nil {
			return
		}
		if err == nil && c.Event.Tool {
			if _, ok := c.Fields["tool_input"].(map[string]any); !ok {
				t.Fatalf("tool_input = %#v, want an object", c.Fields["tool_input"])
			}
		}
		for _, d := range []protocol.Decision{protocol.DecisionNone, protocol.DecisionBlock, protocol.DecisionAsk, protocol.DecisionAllow} {
			o := &protocol.Outcome{Event: c.Event.Name, Decision: d, Message: "m", Context: "c"}
			for _, r := range []Reply{kiro.Encode(c, o), kiro.Deny(c, "r")} {
				switch {
				case r.Exit == 2 && (c.AgentEvent == "preToolUse" || c.AgentEvent == "PreToolUse" || c.AgentEvent == "UserPromptSubmit") && len(r.Stdout) == 0 && strings.HasSuffix(string(r.Stderr), "\n"):
				case r.Exit == 1 && c.AgentEvent == "userPromptSubmit" && len(r.Stdout) == 0:
				case r.Exit == 0 && len(r.Stderr) == 0:
				default:
					t.Fatalf("%s %s: reply %+v", c.AgentEvent, d, r)
				}
			}
		}
	})
}
