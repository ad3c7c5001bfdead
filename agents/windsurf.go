package agents

import (
	"maps"
	"slices"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Windsurf Cascade: snake_case events named in the payload
// (agent_action_name), the call's details under tool_info, and an
// exit-code protocol: exit 2 blocks a pre_ event, and Cascade shows the
// model what the hook wrote on stderr; stdout reaches only the user (when
// the entry sets show_output). Windsurf reads no JSON reply, so it cannot
// ask, rewrite arguments or add context to an allowed call. Windsurf
// ships no package to read: these facts are its documentation's
// (docs.windsurf.com "Cascade Hooks"); see docs/agent-protocols.md.
func newWindsurf() *Agent {
	return &Agent{
		Name: "windsurf",
		Source: Source{ConfigKey: "windsurf_hooks", Flag: "windsurf-hooks", What: "Windsurf hooks",
			FlagHelp:      "also load hooks from this Windsurf hooks.json; they speak Windsurf's protocol (repeatable)",
			ProjectMarker: ".windsurf", ProjectLevels: 1,
			// Windsurf's list holds handlers directly, without matchers.
			FlatToo: true, Handler: windsurfHandler, Codec: windsurfCodec{}},
		Title:    "Windsurf",
		EventKey: "agent_action_name",
		Events: map[string]string{
			"pre_read_code":     "pre_tool_call",
			"post_read_code":    "post_tool_call",
			"pre_write_code":    "pre_tool_call",
			"post_write_code":   "post_tool_call",
			"pre_run_command":   "pre_tool_call",
			"post_run_command":  "post_tool_call",
			"pre_mcp_tool_use":  "pre_tool_call",
			"post_mcp_tool_use": "post_tool_call",
			"pre_user_prompt":   "pre_llm_call",
			// Both fire after every response, asynchronously (nothing of
			// a reply is read); install registers the first only.
			"post_cascade_response":                 "post_llm_call",
			"post_cascade_response_with_transcript": "post_llm_call",
		},
		HookFile: HookFile{
			// The workspace's file, and the Windsurf IDE's user file (the
			// JetBrains plugin reads ~/.codeium/hooks.json instead).
			Project:   ".windsurf/hooks.json",
			User:      ".codeium/windsurf/hooks.json",
			Layout:    Flat,
			NoVersion: true,
			// The user sees what the hook prints on a refusal (Cascade's
			// UI shows stderr only with show_output).
			Extra: []pyjson.Member{{Key: "show_output", Value: true}},
			Events: []string{"pre_read_code", "post_read_code", "pre_write_code", "post_write_code",
				"pre_run_command", "post_run_command", "pre_mcp_tool_use", "post_mcp_tool_use",
				"pre_user_prompt", "post_cascade_response"},
		},
		// No HookTimeout: Windsurf documents no hook timeout [W-DOC].
		decode: decodeWindsurf,
		encode: encodeWindsurf,
		// stdout, shown to the user (show_output, which install writes).
		notice: noticeStdout,
	}
}

// windsurfDialect names the entries of a Windsurf hooks.json read as a
// hook source: they speak windsurfCodec.
const windsurfDialect protocol.Dialect = "windsurf"

// windsurfKind is which of Cascade's actions an event announces.
func windsurfKind(event string) string {
	for _, k := range []string{"read_code", "write_code", "run_command", "mcp_tool_use"} {
		if strings.HasSuffix(event, "_"+k) {
			return k
		}
	}
	return ""
}

func decodeWindsurf(name string, _ *protocol.Event, p map[string]any) map[string]any {
	f := copyFields(p, 6)
	alias(f, "trajectory_id", "session_id")
	alias(f, "execution_id", "turn_id")
	info, _ := p["tool_info"].(map[string]any)
	switch windsurfKind(name) {
	case "read_code":
		f["tool_name"] = "read_file"
		f["args"] = pick(info, "file_path", "path")
	case "write_code":
		f["tool_name"] = "patch"
		args := pick(info, "file_path", "path")
		if e, ok := info["edits"]; ok {
			args["edits"] = e
		}
		f["args"] = args
	case "run_command":
		f["tool_name"] = "terminal"
		f["args"] = pick(info, "command_line", "command")
		if cwd, ok := info["cwd"].(string); ok && cwd != "" {
			f["cwd"] = cwd
		}
	case "mcp_tool_use":
		server, _ := info["mcp_server_name"].(string)
		tool, _ := info["mcp_tool_name"].(string)
		f["tool_name"] = "mcp__" + server + "__" + tool
		f["args"] = argsObject(info["mcp_tool_arguments"])
		if r, ok := info["mcp_result"]; ok {
			f["result"] = r
		}
	}
	switch name {
	case "pre_user_prompt":
		if s, ok := info["user_prompt"]; ok {
			f["prompt"], f["user_message"] = s, s
		}
	case "post_cascade_response":
		if s, ok := info["response"]; ok {
			f["assistant_response"] = s
		}
	case "post_cascade_response_with_transcript":
		if s, ok := info["transcript_path"]; ok {
			f["transcript_path"] = s
		}
	}
	return f
}

// pick copies m[from] to a new map's key to, when present.
func pick(m map[string]any, from, to string) map[string]any {
	out := map[string]any{}
	if v, ok := m[from]; ok {
		out[to] = v
	}
	return out
}

// encodeWindsurf: everything Windsurf reads is exit 2 and stderr, on a
// pre_ event, where it refuses the action (a hook's request for approval
// too: Cascade cannot ask). Its documentation gives a post_ hook's exit
// code and output no effect, so nothing is written after an action; context,
// a system message and an allow have no channel and are dropped
// (docs/agent-protocols.md).
func encodeWindsurf(c *Call, o *protocol.Outcome) Reply {
	if !strings.HasPrefix(c.AgentEvent, "pre_") {
		return Quiet
	}
	var msg string
	switch {
	case o.Decision == protocol.DecisionAsk:
		msg = askRefused(c, o, "Windsurf cannot ask from a hook; this call is refused")
	case o.Decision == protocol.DecisionBlock || o.Stop:
		if o.Decision != protocol.DecisionBlock {
			c.refuses("Windsurf cannot stop the agent from a hook; this call is refused")
		}
		msg = firstNonEmpty(o.Message, o.StopReason, protocol.ClaudeDefaultBlockReason)
	case o.Args != nil && c.Event.Tool:
		// Windsurf runs the call as it announced it or not at all: a
		// rewrite that cannot be applied refuses the call, with the
		// rewritten arguments for the model to retry with.
		msg = rewriteRefusal(c, "Windsurf", o)
	default:
		return Quiet
	}
	return Reply{Exit: 2, Stderr: []byte(msg + "\n")}
}

// windsurfHandler turns one hook of a Windsurf hooks.json ({command,
// show_output, working_directory}) into a Claude Code handler: its
// working directory becomes a cd before the command (relative to where
// the hook runs, the workspace's root for Cascade), show_output is the UI's
// only; and a hook of a tool event gets a matcher naming the one kind of
// action its event announces (windsurfCodec.MatchSubject), as Cascade runs
// pre_read_code for reads only.
func windsurfHandler(event string, h map[string]any, warn func(string)) map[string]any {
	out := map[string]any{"type": "command", "command": h["command"]}
	// In the keys' order: the same file, the same warnings.
	for _, k := range slices.Sorted(maps.Keys(h)) {
		switch k {
		case "command", "show_output":
		case "working_directory":
			if wd, _ := h[k].(string); wd != "" {
				if cmd, ok := h["command"].(string); ok {
					out["command"] = "cd " + shquote.Quote(wd) + " && " + cmd
				}
			}
		default:
			warn(k + ": not a Windsurf hook's key; ignored")
		}
	}
	if kind := windsurfKind(event); kind != "" {
		out["matcher"] = kind
	}
	return out
}

// windsurfCodec is Windsurf's protocol seen from the other side: the hooks
// of a Windsurf hooks.json, run under any agent, get what Cascade would
// send them and are read as Cascade reads them.
type windsurfCodec struct{}

func (windsurfCodec) Dialect() protocol.Dialect { return windsurfDialect }

// ProjectVars: Cascade names the workspace in no variable.
func (windsurfCodec) ProjectVars() []string { return nil }

// MatchSubject is which of Cascade's actions this firing of a tool event
// is (the matcher windsurfHandler gave the hook names the one its event
// announces): read_code for file reads, write_code for writes and edits,
// run_command for shell commands, mcp_tool_use for MCP tools, "" for any
// other tool (no Windsurf hook sees it). The prompt and response events
// fit every firing.
func (windsurfCodec) MatchSubject(declared string, ev *protocol.Event, fields map[string]any, tools *protocol.ToolTable) (string, bool) {
	if windsurfKind(declared) == "" {
		return "", false
	}
	tool, _ := fields["tool_name"].(string)
	switch tools.Claude(tool) {
	case "Read":
		return "read_code", true
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		return "write_code", true
	case "Bash":
		return "run_command", true
	}
	if strings.HasPrefix(tool, "mcp_") {
		return "mcp_tool_use", true
	}
	return "", true
}

// Payload is what Cascade sends a hook of event: agent_action_name,
// trajectory_id, execution_id, timestamp (when the host gave one: this
// package reads no clock) and the action under tool_info — the inverse of
// decodeWindsurf, built on the Claude payload (which already derives the
// prompt and Claude's tool names and file_path from a Hermes host's
// fields).
func (windsurfCodec) Payload(event string, ev *protocol.Event, fields map[string]any, env protocol.PayloadEnv) []byte {
	val := map[string]any{}
	for _, kv := range protocol.ClaudePayload(ev, fields, env) {
		val[kv.Key] = kv.Value
	}
	obj := protocol.Object{{Key: "agent_action_name", Value: event}, {Key: "trajectory_id", Value: protocol.SessionValue(fields)}}
	exec := fields["execution_id"]
	if exec == nil {
		exec = fields["turn_id"]
	}
	if exec == nil {
		exec = ""
	}
	obj = append(obj, protocol.KV{Key: "execution_id", Value: exec})
	if ts, ok := fields["timestamp"]; ok {
		obj = append(obj, protocol.KV{Key: "timestamp", Value: ts})
	}
	in, _ := val["tool_input"].(map[string]any)
	info := protocol.Object{}
	add := func(k string, v any) { info = append(info, protocol.KV{Key: k, Value: v}) }
	switch windsurfKind(event) {
	case "read_code":
		add("file_path", firstPresent(in, "file_path", "path"))
	case "write_code":
		add("file_path", firstPresent(in, "file_path", "path"))
		edits, ok := in["edits"]
		if !ok {
			edit := protocol.Object{{Key: "old_string", Value: firstPresent(in, "old_string")},
				{Key: "new_string", Value: firstPresent(in, "new_string", "content")}}
			edits = []any{edit}
		}
		add("edits", edits)
	case "run_command":
		add("command_line", in["command"])
		add("cwd", val["cwd"])
	case "mcp_tool_use":
		server, tool := splitMCP(val["tool_name"])
		if strings.HasPrefix(event, "post_") {
			add("mcp_result", firstPresent(fields, "result", "tool_response"))
		}
		add("mcp_server_name", server)
		add("mcp_tool_arguments", in)
		add("mcp_tool_name", tool)
	}
	switch event {
	case "pre_user_prompt":
		add("user_prompt", val["prompt"])
	case "post_cascade_response":
		add("response", firstPresent(fields, "assistant_response", "last_assistant_message", "final_response"))
	case "post_cascade_response_with_transcript":
		add("transcript_path", val["transcript_path"])
	}
	obj = append(obj, protocol.KV{Key: "tool_info", Value: info})
	return pyjson.Encode(obj, pyjson.Compact)
}

// firstPresent is m's value of the first key it has ("" when none).
func firstPresent(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok && v != nil {
			return v
		}
	}
	return ""
}

// splitMCP splits an MCP tool's name (mcp__server__tool, Claude Code's;
// mcp_server_tool, Hermes') into the server and the tool.
func splitMCP(name any) (server, tool string) {
	s, _ := name.(string)
	if rest, ok := strings.CutPrefix(s, "mcp__"); ok {
		server, tool, _ = strings.Cut(rest, "__")
		return server, tool
	}
	rest := strings.TrimPrefix(s, "mcp_")
	server, tool, _ = strings.Cut(rest, "_")
	return server, tool
}

// ReadReply reads a Windsurf hook as Cascade's documentation says it
// reads one: exit 2 refuses a pre_ event with stderr for the model and
// has no effect after an action; another exit is an error the action
// proceeds past; stdout is the user's only and carries nothing.
//
// It also finds a refusal in words Cascade does not read (protocol.CodecRead). It reads
// no word of stdout, so a refusal there — a Cursor or Claude Code script
// placed in a Windsurf hooks.json — is one nobody read, where a pre_ hook
// refuses.
func (windsurfCodec) ReadReply(event string, r protocol.Reply) protocol.Read {
	c, note := windsurfParse(event, r)
	var w protocol.ReplyWords
	var obj map[string]any
	if windsurfRefuses(event) && r.ExitCode == 0 && r.SpawnError == "" && !r.TimedOut {
		w.Refusal = "exit 2 with the reason on stderr"
		v, _ := pyjson.Decode([]byte(strings.TrimSpace(pyjson.DecodeReplace(r.Stdout))))
		obj, _ = v.(map[string]any)
	}
	return protocol.CodecRead(windsurfDialect, event, w, r, obj, c, note)
}

// windsurfRefuses reports whether Cascade's hooks of event can refuse
// (exit 2): before an action.
func windsurfRefuses(event string) bool { return strings.HasPrefix(event, "pre_") }

func windsurfParse(event string, r protocol.Reply) (*protocol.Contribution, string) {
	ev := r.Event
	if ev == nil {
		return nil, "unknown event"
	}
	refuses := windsurfRefuses(event) && ev.Can(protocol.CapBlock)
	failClosed := r.FailClosed && refuses
	stderr := strings.TrimSpace(pyjson.DecodeReplace(r.Stderr))
	var reason string
	switch {
	case r.SpawnError != "":
		reason = r.SpawnError
	case r.TimedOut:
		reason = "timed out"
	case r.ExitCode == 2:
		if !refuses {
			return nil, "exit code 2 has no effect on " + event
		}
		return &protocol.Contribution{Decision: protocol.DecisionBlock, Message: firstNonEmpty(stderr, protocol.ClaudeDefaultBlockReason)}, ""
	case r.ExitCode != 0:
		reason = protocol.ExitText(r.ExitCode)
		if line, _, _ := strings.Cut(stderr, "\n"); line != "" {
			reason += ": " + line
		}
	default:
		return nil, ""
	}
	if failClosed {
		return protocol.FailedClosed(r.Command, reason), reason
	}
	return nil, "hook " + reason
}
