package agents

import (
	"slices"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Samples: a minimal payload per agent (and host) and event, as the agent
// sends it, so that tests can fire every event of every agent without a
// table of their own: the fail-closed matrix (internal/attacktest) runs
// `hook AGENT EVENT` with one for every gating event of the registry, so a
// new agent or event is covered without editing it. TestSampleRoundTrip
// decodes each sample back: an agent whose payload is not Claude Code's
// shape needs its line in samplers before it passes.

// SampleCommand is the shell command a sample tool call carries.
const SampleCommand = "rm -rf /"

// sampler builds the payload of one event: tool is the tool to name in the
// agent's own spelling ("" for its shell tool, or the one tool the event is
// about). ok is false when the event's payload cannot name tool (Cursor's
// beforeReadFile is a file read whatever the caller wants).
type sampler func(event string, ev *protocol.Event, tool string) (payload map[string]any, ok bool)

// samplers are the payload shapes that are not Claude Code's (hook_event_name,
// session_id, tool_name, tool_input), by agent or host name.
var samplers = map[string]sampler{
	"copilot":  sampleCopilot,
	"cursor":   sampleCursor,
	"windsurf": sampleWindsurf,
	"cline":    sampleCline,
	"vscode":   sampleVSCode,
}

// sampleShell is each agent's own name of its shell tool, where it is not
// Claude Code's Bash.
var sampleShell = map[string]string{
	"gemini": "run_shell_command", "qwen": "run_shell_command", "factory": "Execute", "kiro": "execute_bash",
}

// HostNames lists the programs besides the agent that call `hook AGENT`
// with payloads of their own (VS Code for Claude Code's settings).
func (a *Agent) HostNames() []string {
	var out []string
	for _, h := range a.hosts {
		out = append(out, h.Name)
	}
	return out
}

// Sample is a minimal payload the agent — or its host called host, when
// host is not "" — sends for its event agentEvent: for a tool event, a call
// of tool (its own spelling; "" for its shell tool running SampleCommand).
// ok is false when host is unknown, the event is not one the agent serves,
// or its payload cannot name tool.
func (a *Agent) Sample(host, agentEvent, tool string) ([]byte, bool) {
	ev := a.event(agentEvent)
	if ev == nil || host != "" && !slices.ContainsFunc(a.hosts, func(h *Host) bool { return h.Name == host }) {
		return nil, false
	}
	name, key := a.Name, a.EventKey
	if host != "" {
		name = host
	}
	var p map[string]any
	ok := true
	if s, has := samplers[name]; has {
		p, ok = s(agentEvent, ev, tool)
	} else {
		p = map[string]any{key: agentEvent, "session_id": "sample"}
		if ev.Tool {
			p["tool_name"] = firstNonEmpty(tool, sampleShell[name], "Bash")
			p["tool_input"] = map[string]any{"command": SampleCommand}
		}
	}
	if !ok {
		return nil, false
	}
	return pyjson.Encode(p, pyjson.Compact), true
}

// sampleCopilot: PascalCase events carry Claude Code's shape; camelCase
// ones name no event (the command line does) and carry Copilot's own
// field and tool names, the arguments as JSON text.
func sampleCopilot(event string, ev *protocol.Event, tool string) (map[string]any, bool) {
	if protocol.IsClaudeName(event) {
		p := map[string]any{"hook_event_name": event, "session_id": "sample"}
		if ev.Tool {
			p["tool_name"], p["tool_input"] = firstNonEmpty(tool, "Bash"), map[string]any{"command": SampleCommand}
		}
		return p, true
	}
	p := map[string]any{"sessionId": "sample"}
	if ev.Tool {
		p["toolName"], p["toolArgs"] = firstNonEmpty(tool, "bash"), `{"command":"`+SampleCommand+`"}`
	}
	return p, true
}

// sampleCursor: the per-action events are about one kind of tool each.
func sampleCursor(event string, _ *protocol.Event, tool string) (map[string]any, bool) {
	p := map[string]any{"hook_event_name": event, "conversation_id": "sample"}
	switch event {
	case "beforeShellExecution", "afterShellExecution":
		p["command"] = SampleCommand
		return p, tool == ""
	case "beforeReadFile":
		p["file_path"] = "/etc/passwd"
		return p, tool == ""
	case "afterFileEdit":
		p["file_path"], p["edits"] = "/etc/passwd", []any{}
		return p, tool == ""
	case "beforeMCPExecution", "afterMCPExecution":
		p["tool_name"], p["tool_input"] = firstNonEmpty(tool, "sample_tool"), `{"command":"`+SampleCommand+`"}`
	case "preToolUse", "postToolUse", "postToolUseFailure":
		p["tool_name"], p["tool_input"] = firstNonEmpty(tool, "Shell"), map[string]any{"command": SampleCommand}
	}
	return p, true
}

// sampleWindsurf: every action event is about one kind of action, named
// by the event; its details are under tool_info.
func sampleWindsurf(event string, _ *protocol.Event, tool string) (map[string]any, bool) {
	info := map[string]any{}
	switch windsurfKind(event) {
	case "read_code":
		info["file_path"] = "/etc/passwd"
	case "write_code":
		info["file_path"], info["edits"] = "/etc/passwd", []any{}
	case "run_command":
		info["command_line"] = SampleCommand
	case "mcp_tool_use":
		info["mcp_server_name"], info["mcp_tool_name"] = "sample", "tool"
		info["mcp_tool_arguments"] = map[string]any{"command": SampleCommand}
	case "":
		if event == "pre_user_prompt" {
			info["user_prompt"] = SampleCommand
		}
	}
	p := map[string]any{"agent_action_name": event, "trajectory_id": "sample", "execution_id": "sample", "tool_info": info}
	return p, tool == ""
}

// sampleCline: the event's data under its own key; cline 3's SDK names
// (tool_call …) carry the call as {name, input}.
func sampleCline(event string, _ *protocol.Event, tool string) (map[string]any, bool) {
	p := map[string]any{"hookName": event, "taskId": "sample"}
	switch {
	case event == "tool_call":
		call := map[string]any{"name": "run_commands", "input": map[string]any{"commands": []any{SampleCommand}}}
		if tool != "" {
			call = map[string]any{"name": tool, "input": map[string]any{"command": SampleCommand}}
		}
		p["tool_call"] = call
	case clineKindOf(event) == clinePreTool || clineKindOf(event) == clinePostTool:
		key := "preToolUse"
		if clineKindOf(event) == clinePostTool {
			key = "postToolUse"
		}
		p[key] = map[string]any{"toolName": firstNonEmpty(tool, "execute_command"), "parameters": map[string]any{"command": SampleCommand}}
	}
	return p, true
}

// sampleVSCode: camelCase common fields, Claude Code's event fields, VS
// Code's tool names.
func sampleVSCode(event string, ev *protocol.Event, tool string) (map[string]any, bool) {
	p := map[string]any{"hookEventName": event, "sessionId": "sample"}
	if ev.Tool {
		p["tool_name"], p["tool_input"] = firstNonEmpty(tool, "run_in_terminal"), map[string]any{"command": SampleCommand}
	}
	return p, true
}
