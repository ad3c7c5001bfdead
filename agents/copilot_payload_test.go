package agents

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A Copilot hook declared in camelCase gets Copilot CLI's camelCase
// payload, byte for byte, from a Hermes host's fields and a Claude Code
// host's; one declared in PascalCase gets Claude Code's. Before, every
// declared name got Claude Code's payload, and a guard reading toolArgs
// read nothing.
func TestCopilotPayload(t *testing.T) {
	env := protocol.PayloadEnv{Cwd: "/w"}
	for _, tc := range []struct{ declared, fields, want string }{
		{"preToolUse", `{"tool_name":"terminal","args":{"command":"rm -rf /"},"session_id":"s1"}`,
			`{"sessionId":"s1","timestamp":0,"transcriptPath":"","cwd":"/w","toolName":"bash","toolArgs":"{\"command\":\"rm -rf /\"}"}`},
		{"preToolUse", `{"hook_event_name":"PreToolUse","session_id":"s1","cwd":"/p","transcript_path":"/t","permission_mode":"default","tool_name":"Read","tool_input":{"file_path":"/etc/passwd"},"tool_use_id":"u1","timestamp":"2026-11-26T01:00:00.000Z"}`,
			`{"sessionId":"s1","timestamp":1795654800000,"transcriptPath":"/t","cwd":"/p","toolName":"view","toolArgs":"{\"file_path\":\"/etc/passwd\",\"path\":\"/etc/passwd\"}","tool_use_id":"u1"}`},
		// An MCP tool keeps its name; a numeric timestamp is kept as is.
		{"preToolUse", `{"tool_name":"mcp_github_create_issue","args":{"title":"x"},"session_id":"s1","timestamp":1764118800000}`,
			`{"sessionId":"s1","timestamp":1764118800000,"transcriptPath":"","cwd":"/w","toolName":"mcp_github_create_issue","toolArgs":"{\"title\":\"x\"}"}`},
		// Arguments that are no mapping: an empty object's text.
		{"preToolUse", `{"tool_name":"terminal","args":"ls","session_id":"s1"}`,
			`{"sessionId":"s1","timestamp":0,"transcriptPath":"","cwd":"/w","toolName":"bash","toolArgs":"{}"}`},
		{"postToolUse", `{"tool_name":"read_file","args":{"path":"a.go"},"result":"{\"n\":1}","session_id":"s1"}`,
			`{"sessionId":"s1","timestamp":0,"transcriptPath":"","cwd":"/w","toolName":"view","toolArgs":"{\"file_path\":\"a.go\",\"path\":\"a.go\"}","toolResult":{"resultType":"success","textResultForLlm":"{\"n\":1}"},"result":"{\"n\":1}"}`},
		{"postToolUse", `{"hook_event_name":"PostToolUse","session_id":"s1","tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":{"stdout":"a"}}`,
			`{"sessionId":"s1","timestamp":0,"transcriptPath":"","cwd":"/w","toolName":"bash","toolArgs":"{\"command\":\"ls\"}","toolResult":{"resultType":"success","textResultForLlm":"{\"stdout\":\"a\"}"}}`},
		{"permissionRequest", `{"hook_event_name":"PermissionRequest","session_id":"s1","tool_name":"Write","tool_input":{"file_path":"a","content":"x"}}`,
			`{"sessionId":"s1","timestamp":0,"transcriptPath":"","cwd":"/w","toolName":"create","toolArgs":"{\"content\":\"x\",\"file_path\":\"a\",\"file_text\":\"x\",\"path\":\"a\"}"}`},
		{"userPromptSubmitted", `{"user_message":"deploy it","session_id":"s1"}`,
			`{"sessionId":"s1","timestamp":0,"transcriptPath":"","cwd":"/w","prompt":"deploy it","user_message":"deploy it"}`},
		{"sessionStart", `{"session_id":"s1","source":"startup"}`,
			`{"sessionId":"s1","timestamp":0,"transcriptPath":"","cwd":"/w","source":"startup"}`},
		{"sessionEnd", `{"session_id":"s1","reason":"exit"}`,
			`{"sessionId":"s1","timestamp":0,"transcriptPath":"","cwd":"/w","reason":"exit"}`},
		{"agentStop", `{"hook_event_name":"Stop","session_id":"s1","transcript_path":"/t","stop_hook_active":false}`,
			`{"sessionId":"s1","timestamp":0,"transcriptPath":"/t","cwd":"/w","stop_hook_active":false}`},
		{"subagentStop", `{"hook_event_name":"SubagentStop","session_id":"s1","agent_id":"a1","agent_type":"explore","last_assistant_message":"done"}`,
			`{"sessionId":"s1","timestamp":0,"transcriptPath":"","cwd":"/w","agentId":"a1","agentType":"explore","stop_hook_active":false,"response":"done"}`},
		// notification is the one camelCase payload with an event name.
		{"notification", `{"hook_event_name":"Notification","session_id":"s1","message":"hi","notification_type":"idle_prompt"}`,
			`{"sessionId":"s1","timestamp":0,"transcriptPath":"","cwd":"/w","hook_event_name":"Notification","message":"hi","notification_type":"idle_prompt"}`},
		{"preCompact", `{"hook_event_name":"PreCompact","session_id":"s1","trigger":"manual","custom_instructions":"short"}`,
			`{"sessionId":"s1","timestamp":0,"transcriptPath":"","cwd":"/w","customInstructions":"short","trigger":"manual"}`},
	} {
		t.Run(tc.declared, func(t *testing.T) {
			ev, _ := copilot.Canonical(tc.declared)
			fields := decodeFields(t, tc.fields)
			got := string(copilotCodec{}.Payload(tc.declared, ev, fields, env))
			if got != tc.want+"\n" {
				t.Errorf("payload\n got %s\nwant %s", got, tc.want)
			}
			// What Copilot would send decodes back to the same call.
			c, err := copilot.Decode([]byte(got), tc.declared)
			if err != nil || c.Event != ev {
				t.Fatalf("the payload decodes to %+v, %v", c, err)
			}
			if ev.Tool {
				want := protocol.NewFiring(ev, "", fields)
				back := protocol.NewFiring(ev, "", c.Fields)
				if env.Tools.Claude(back.HostTool) != env.Tools.Claude(want.HostTool) {
					t.Errorf("tool %q decodes to %q", want.HostTool, back.HostTool)
				}
				if m := want.ArgsMap(); m != nil {
					for k, v := range m {
						if !reflect.DeepEqual(back.ArgsMap()[k], v) {
							t.Errorf("argument %s: %v decodes to %v", k, v, back.ArgsMap()[k])
						}
					}
				}
			}
		})
	}
	// PascalCase: Claude Code's payload, as before.
	for _, declared := range []string{"PreToolUse", "PostToolUse", "Stop", "Notification"} {
		ev, _ := copilot.Canonical(declared)
		fields := decodeFields(t, `{"tool_name":"terminal","args":{"command":"ls"},"session_id":"s1"}`)
		got := copilotCodec{}.Payload(declared, ev, fields, env)
		if want := protocol.BuildPayload(protocol.Claude, ev, fields, env); string(got) != string(want) {
			t.Errorf("%s: payload\n got %s\nwant %s", declared, got, want)
		}
	}
}

// Every Claude Code name in Copilot's tool table maps back to one of its
// own names for it.
func TestCopilotRuntimeTools(t *testing.T) {
	for _, r := range copilotToolNames {
		if got := copilotTools()[copilotRuntimeTools()[r.claude]]; got != r.claude {
			t.Errorf("%s -> %s -> %s", r.claude, copilotRuntimeTools()[r.claude], got)
		}
	}
}

// FuzzCopilotPayload: whatever the host's fields, a camelCase payload is
// one JSON object whose toolArgs, on a tool event, is the text of a JSON
// object.
func FuzzCopilotPayload(f *testing.F) {
	f.Add("preToolUse", `{"tool_name":"terminal","args":{"command":"rm -rf /"}}`)
	f.Add("postToolUse", `{"tool_name":"Bash","tool_input":{"command":"ls"},"tool_response":[1,"x"]}`)
	f.Add("permissionRequest", `{"tool_name":7,"args":null,"timestamp":"x"}`)
	f.Add("agentStop", `{"sessionId":"s","session_id":{"a":1},"toolArgs":"x"}`)
	env := protocol.PayloadEnv{Cwd: "/w"}
	f.Fuzz(func(t *testing.T, declared, fields string) {
		ev, ok := copilot.Canonical(declared)
		v, err := pyjson.Decode([]byte(fields))
		m, isObj := v.(map[string]any)
		if !ok || ev == nil || err != nil || !isObj {
			return
		}
		p := copilotCodec{}.Payload(declared, ev, m, env)
		d, err := pyjson.Decode(p)
		obj, isObj := d.(map[string]any)
		if err != nil || !isObj {
			t.Fatalf("payload %s is no JSON object: %v", p, err)
		}
		if !ev.Tool || !copilotIsCamel(declared) {
			return
		}
		s, ok := obj["toolArgs"].(string)
		if !ok {
			t.Fatalf("toolArgs %v is no string in %s", obj["toolArgs"], p)
		}
		if a, err := pyjson.Decode([]byte(s)); err != nil {
			t.Fatalf("toolArgs %q: %v", s, err)
		} else if _, ok := a.(map[string]any); !ok {
			t.Fatalf("toolArgs %q is no object", s)
		}
	})
}

// A camelCase entry's matcher is compared with Copilot's own tool name, as
// Copilot compares it; a PascalCase one's with Claude Code's. Before, a
// camelCase regex such as (bash|powershell) was compared with Bash.
func TestCopilotMatchSubject(t *testing.T) {
	tools := protocol.NewToolTable(nil)
	for _, tc := range []struct{ declared, fields, want string }{
		{"preToolUse", `{"tool_name":"terminal","args":{"command":"ls"}}`, "bash"},
		{"preToolUse", `{"tool_name":"Read","tool_input":{"file_path":"a"}}`, "view"},
		{"permissionRequest", `{"tool_name":"Agent","tool_input":{}}`, "task"},
		{"postToolUse", `{"tool_name":"mcp__gh__x","tool_input":{}}`, "mcp__gh__x"},
		{"PreToolUse", `{"tool_name":"terminal","args":{"command":"ls"}}`, "Bash"},
		{"sessionStart", `{"source":"startup"}`, "startup"},
	} {
		ev, _ := copilot.Canonical(tc.declared)
		got, ok := copilotCodec{}.MatchSubject(tc.declared, ev, decodeFields(t, tc.fields), tools)
		if got != tc.want || !ok {
			t.Errorf("%s %s: subject %q, %v; want %q", tc.declared, tc.fields, got, ok, tc.want)
		}
	}
	for m, want := range map[string]string{"bash|view": "bash|powershell|view", "Bash": "Bash|bash|powershell",
		"rg": "grep|rg", "mcp_x": "mcp_x", "(bash|powershell)": "^(?:(bash|powershell))$", "*": "*"} {
		if got := copilotMatcher("preToolUse", m); got != want {
			t.Errorf("matcher %q reads as %q, want %q", m, got, want)
		}
	}
}

// A camelCase guard that rewrites the call edits Copilot's argument names
// (path, file_text …) in the toolArgs it was sent, which also hold the
// host's names (file_path, content) with the old values: Copilot's names
// are what it changed, so they win, and the call runs as the guard wrote
// it. Before, the stale file_path undid a redirected path.
func TestCopilotModifiedArgsCopilotNames(t *testing.T) {
	ev, _ := copilot.Canonical("preToolUse")
	host := map[string]any{"path": "/etc/passwd", "content": "a"}
	fields := map[string]any{"tool_name": "write_file", "args": host, "session_id": "s1"}
	var sent struct{ ToolArgs string }
	if err := json.Unmarshal(copilotCodec{}.Payload("preToolUse", ev, fields, protocol.PayloadEnv{}), &sent); err != nil {
		t.Fatal(err)
	}
	var args map[string]any
	if err := json.Unmarshal([]byte(sent.ToolArgs), &args); err != nil {
		t.Fatal(err)
	}
	args["path"], args["file_text"] = "/tmp/safe", "b" // jq '.path = "/tmp/safe" | .file_text = "b"'
	reply, _ := json.Marshal(map[string]any{"modifiedArgs": args})
	rd := copilotCodec{}.ReadReply("preToolUse", protocol.Reply{Dialect: protocol.Claude, Event: ev, Command: "g", Stdout: reply})
	if rd.Contribution == nil || !rd.Contribution.ReplaceArgs {
		t.Fatalf("contribution %+v", rd.Contribution)
	}
	got := protocol.HostArgs(host, rd.Contribution.Args)
	if got["path"] != "/tmp/safe" || got["content"] != "b" {
		t.Errorf("the host runs %v, want path /tmp/safe and content b", got)
	}
	// A Claude Code host's call (file_path, content) likewise.
	claude := map[string]any{"file_path": "/etc/passwd", "content": "a"}
	got = protocol.HostArgs(claude, rd.Contribution.Args)
	if got["file_path"] != "/tmp/safe" || got["content"] != "b" {
		t.Errorf("Claude Code runs %v, want file_path /tmp/safe and content b", got)
	}
}

// Every Claude Code tool that stands for another (protocol's variants:
// PowerShell, MultiEdit, NotebookEdit, Agent) has a name in Copilot's
// camelCase payload, derived rather than listed by hand: a variant without
// one reached a camelCase guard under its Claude name, which no Copilot
// matcher names, so the guard on the tool it stands for never ran.
func TestCopilotRuntimeNamesEveryClaudeVariant(t *testing.T) {
	for v, base := range protocol.ClaudeVariants() {
		got, ok := copilotRuntimeTools()[v]
		if !ok {
			t.Errorf("%s (a variant of %s) has no Copilot runtime name", v, base)
			continue
		}
		if c, _ := CopilotClaudeTool(got); c != base {
			t.Errorf("%s's Copilot runtime name %q is Copilot's name of %q, want one of %s's", v, got, c, base)
		}
	}
	if got := copilotRuntimeTools()["PowerShell"]; got != "powershell" {
		t.Errorf("PowerShell is %q in a camelCase payload, want Copilot's own name powershell", got)
	}
}
