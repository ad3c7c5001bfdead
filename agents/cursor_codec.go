package agents

import (
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// cursorCodec is Cursor's protocol seen from the other side: the hooks of
// a Cursor hooks.json (cursor_hooks:) run under any agent, fed what Cursor
// would send them (Payload, the inverse of decodeCursor) and read as
// Cursor reads them (ReadReply, the inverse of encodeCursor), only for the
// firings their Cursor event stands for (Covers). It lives beside
// decodeCursor and encodeCursor, on the same event and tool tables
// (Events, cursorTools), and is pure. Every entry of such a file carries
// it; the config reader and the dispatcher call it without knowing Cursor.
type cursorCodec struct{}

// cursorDialect names the hooks of a Cursor hooks.json (cursorCodec): in
// list, the journal and messages ("cursor dialect").
const cursorDialect protocol.Dialect = "cursor"

func (cursorCodec) Dialect() protocol.Dialect { return cursorDialect }

// ProjectVars: Cursor's own, and Claude Code's for the Claude-compatible
// scripts Cursor also runs.
func (cursorCodec) ProjectVars() []string {
	return []string{"CURSOR_PROJECT_DIR", "CLAUDE_PROJECT_DIR"}
}

// MatchSubject: a Cursor matcher is compared with Cursor's tool name
// (Shell, Read …); the config reader drops one on an event that is not
// about a tool (MatcherIgnored), so there is always a subject.
func (cursorCodec) MatchSubject(_ string, _ *protocol.Event, fields map[string]any, tools *protocol.ToolTable) (string, bool) {
	name, _ := fields["tool_name"].(string)
	return cursorToolName(name, tools), true
}

// MatcherIgnored: Cursor's matchers select tools.
func (cursorCodec) MatcherIgnored(_ string, ev *protocol.Event) string {
	if ev.Tool {
		return ""
	}
	return "a Cursor hook's matcher selects tools"
}

// cursorReads is what a Cursor event's hooks may reply with.
type cursorReads uint8

const (
	// cursorPermission: {permission allow|deny|ask, user_message,
	// agent_message}; exit 2 denies.
	cursorPermission cursorReads = 1 << iota
	// cursorUpdatedInput: {updated_input} replaces the tool's input.
	cursorUpdatedInput
	// cursorContinue: {continue: false, user_message} refuses the prompt;
	// exit 2 too.
	cursorContinue
	// cursorFollowup: {followup_message} is the next turn: keep going.
	cursorFollowup
	// cursorContext: {additional_context} for the model.
	cursorContext
	// cursorEnv: {env} for the session's later commands.
	cursorEnv
)

// cursorReplies are the Cursor events whose replies Cursor reads, and what
// it reads there; the others (afterShellExecution, sessionEnd …) are
// observers. It mirrors what encodeCursor writes.
var cursorReplies = sync.OnceValue(func() map[string]cursorReads {
	return map[string]cursorReads{
		"preToolUse":           cursorPermission | cursorUpdatedInput,
		"beforeShellExecution": cursorPermission,
		"beforeMCPExecution":   cursorPermission,
		"beforeReadFile":       cursorPermission,
		"subagentStart":        cursorPermission,
		"beforeSubmitPrompt":   cursorContinue,
		"stop":                 cursorFollowup,
		"subagentStop":         cursorFollowup,
		"postToolUse":          cursorContext,
		"sessionStart":         cursorContext | cursorEnv,
	}
})

// cursorActions are the Cursor events that cover one kind of tool call
// only (named by Cursor's tool names, cursorTools' keys), where their
// canonical event covers every tool: beforeShellExecution is
// pre_tool_call for the shell only.
var cursorActions = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"beforeShellExecution": {"Shell"},
		"afterShellExecution":  {"Shell"},
		"beforeReadFile":       {"Read"},
		"afterFileEdit":        {"Write", "Edit"},
	}
})

// cursorMCPEvents cover MCP tool calls only.
var cursorMCPEvents = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"beforeMCPExecution": true, "afterMCPExecution": true}
})

// cursorTools maps Cursor's tool names to the canonical (Hermes) ones;
// others (MCP:<tool>, Grep …) pass through.
var cursorTools = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"Shell": "terminal", "Read": "read_file", "Write": "write_file", "Edit": "patch",
		"Task": "delegate_task", "WebSearch": "web_search", "WebFetch": "web_extract",
	}
})

// cursorToolNames is cursorTools reversed: canonical tool → Cursor's name.
var cursorToolNames = sync.OnceValue(func() map[string]string {
	m := make(map[string]string, len(cursorTools()))
	for c, h := range cursorTools() {
		m[h] = c
	}
	return m
})

// cursorToolName returns Cursor's name for a tool named in either the
// Hermes or the Claude dialect (Bash and terminal are Shell); names Cursor
// shares or does not know pass through.
func cursorToolName(name string, tools *protocol.ToolTable) string {
	if c, ok := cursorToolNames()[tools.Hermes(name)]; ok {
		return c
	}
	return name
}

// isMCPTool reports an MCP tool's name: mcp__server__tool (Claude Code),
// mcp_server_tool (Hermes) or MCP:tool (Cursor).
func isMCPTool(name string) bool {
	return strings.HasPrefix(name, "mcp_") || strings.HasPrefix(name, "MCP:")
}

// Covers reports whether a firing of its canonical event is one the
// Cursor event cursorEvent stands for: beforeShellExecution fires for shell
// commands only, beforeReadFile for file reads, afterFileEdit for writes
// and edits, the MCP events for MCP tools; every other Cursor event for
// every firing of its canonical event. So a Cursor hook sees only what
// Cursor itself would have sent it.
func (cursorCodec) Covers(cursorEvent string, fields map[string]any, tools *protocol.ToolTable) bool {
	tool, _ := fields["tool_name"].(string)
	if cursorMCPEvents()[cursorEvent] {
		return isMCPTool(tool)
	}
	names, ok := cursorActions()[cursorEvent]
	if !ok {
		return true
	}
	c := cursorToolName(tool, tools)
	for _, n := range names {
		if c == n {
			return true
		}
	}
	return false
}

// Refuses reports whether a Cursor event's hooks can refuse what it
// announces (a permission, or continue:false): where a fail-closed Cursor
// hook blocks on failure. A failing stop hook must not keep the agent
// going, so stop and subagentStop are not among them.
func (cursorCodec) Refuses(cursorEvent string) bool { return cursorRefuses(cursorEvent) }

func cursorRefuses(cursorEvent string) bool {
	return cursorReplies()[cursorEvent]&(cursorPermission|cursorContinue) != 0
}

// Payload is the stdin of a Cursor hook declared under cursorEvent,
// for a firing of its canonical event ev: what Cursor would send — the
// inverse of decodeCursor. It is built on the Claude payload (which already
// derives prompt, tool_response, stop_hook_active … from a Hermes host's
// fields), reshaped into Cursor's fields and names; every other host field
// follows, as Cursor hooks ignore keys they do not know.
func (cursorCodec) Payload(cursorEvent string, ev *protocol.Event, fields map[string]any, env protocol.PayloadEnv) []byte {
	base := protocol.ClaudePayload(ev, fields, env)
	val := make(map[string]any, len(base))
	for _, kv := range base {
		val[kv.Key] = kv.Value
	}
	done := map[string]bool{"hook_event_name": true, "permission_mode": true, "tool_name": true, "tool_input": true}
	obj := make(protocol.Object, 0, len(base)+4)
	add := func(k string, v any) {
		obj = append(obj, protocol.KV{Key: k, Value: v})
		done[k] = true
	}
	add("hook_event_name", cursorEvent)
	if v, ok := fields["conversation_id"]; ok {
		add("conversation_id", v)
	} else {
		add("conversation_id", protocol.SessionValue(fields))
	}
	if v, ok := fields["workspace_roots"]; ok {
		add("workspace_roots", v)
	} else {
		add("workspace_roots", []any{val["cwd"]})
	}
	claudeTool, _ := val["tool_name"].(string)
	input, _ := val["tool_input"].(map[string]any)
	result := func() any {
		if v, ok := fields["result"]; ok {
			return v
		}
		return val["tool_response"]
	}
	switch cursorEvent {
	case "preToolUse", "postToolUse", "postToolUseFailure":
		add("tool_name", cursorToolName(claudeTool, env.Tools))
		add("tool_input", input)
		if cursorEvent == "postToolUse" {
			add("tool_output", result())
			done["tool_response"] = true
		}
	case "beforeShellExecution", "afterShellExecution":
		add("command", input["command"])
		if cursorEvent == "afterShellExecution" {
			add("output", result())
			done["tool_response"] = true
		}
	case "beforeMCPExecution", "afterMCPExecution":
		add("tool_name", claudeTool)
		// Cursor sends an MCP tool's input as the JSON text of it.
		add("tool_input", string(pyjson.Encode(input, pyjson.Compact)))
		if cursorEvent == "afterMCPExecution" {
			add("result_json", result())
			done["tool_response"] = true
		}
	case "beforeReadFile":
		add("file_path", firstOf(input, "file_path", "path"))
	case "afterFileEdit":
		add("file_path", firstOf(input, "file_path", "path"))
		if e, ok := input["edits"]; ok {
			add("edits", e)
		} else {
			add("edits", []any{map[string]any{"old_string": input["old_string"], "new_string": input["new_string"]}})
		}
	case "stop", "subagentStop":
		if _, ok := fields["status"]; !ok {
			add("status", "completed")
		}
		if _, ok := fields["loop_count"]; !ok {
			// Claude's stop_hook_active: a follow-up already ran.
			n := 0
			if b, _ := val["stop_hook_active"].(bool); b {
				n = 1
			}
			add("loop_count", int64(n))
		}
	}
	for _, kv := range base {
		if !done[kv.Key] {
			obj = append(obj, kv)
			done[kv.Key] = true
		}
	}
	return protocol.EncodePayload(protocol.Claude, obj) // JSON.stringify, as Cursor writes it
}

func firstOf(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return v
		}
	}
	return nil
}

// ReadReply reads the reply of a Cursor hook declared under
// cursorEvent as Cursor reads it: {"permission": "deny"} blocks with
// agent_message (for the model), else user_message, as the reason; "ask"
// asks; "allow" allows; updated_input (preToolUse) replaces the tool's
// input; {"continue": false} (beforeSubmitPrompt) refuses the prompt with
// user_message; followup_message (stop, subagentStop) keeps the agent
// going with it; additional_context is context. Exit 2 denies where the
// event can refuse, with stderr as the reason. Any other non-zero exit, a
// spawn error, a timeout and stdout that is not a JSON object are
// failures: nothing, or — for a fail-closed hook on an event it can
// refuse — a block, as in the other dialects.
//
// It also finds a refusal in words Cursor does not read (protocol.CodecRead).
func (cursorCodec) ReadReply(cursorEvent string, r protocol.Reply) protocol.Read {
	c, note, obj := cursorRead(cursorEvent, r)
	return protocol.CodecRead(cursorDialect, cursorEvent, cursorWords(cursorEvent), r, obj, c, note)
}

// cursorWords are the words of refusal Cursor reads on cursorEvent:
// permission where it asks one, continue before a prompt.
func cursorWords(cursorEvent string) protocol.ReplyWords {
	switch reads := cursorReplies()[cursorEvent]; {
	case reads&cursorPermission != 0:
		return protocol.ReplyWords{Keys: []string{"permission"}, Refusal: `reply {"permission": "deny", "agent_message": "…"}`}
	case reads&cursorContinue != 0:
		return protocol.ReplyWords{Keys: []string{"continue"}, Refusal: `reply {"continue": false, "user_message": "…"}`}
	}
	return protocol.ReplyWords{}
}

// cursorRead is ReadReply with the reply object it read and applied
// (obj: nil for none).
func cursorRead(cursorEvent string, r protocol.Reply) (_ *protocol.Contribution, _ string, obj map[string]any) {
	ev := r.Event
	if ev == nil {
		return nil, "unknown event", nil
	}
	reads := cursorReplies()[cursorEvent]
	failClosed := r.FailClosed && cursorRefuses(cursorEvent)
	if r.SpawnError != "" || r.TimedOut {
		reason := r.NotRun()
		if failClosed {
			return protocol.FailedClosed(r.Command, reason), reason, nil
		}
		return nil, reason, nil
	}
	stdout := strings.TrimSpace(pyjson.DecodeReplace(r.Stdout))
	stderr := strings.TrimSpace(pyjson.DecodeReplace(r.Stderr))
	if stdout != "" {
		v, err := pyjson.DecodeUnique([]byte(stdout))
		obj, _ = v.(map[string]any)
		if amb := protocol.Ambiguous(err); amb != "" {
			// Which of the two the hook meant cannot be known: no reply,
			// whatever the exit code.
			if failClosed {
				return protocol.FailedClosed(r.Command, "ambiguous stdout: "+amb), protocol.AmbiguousNote(amb, stdout), nil
			}
			return nil, protocol.AmbiguousNote(amb, stdout), nil
		}
		if (err != nil || obj == nil) && r.ExitCode == 0 {
			note := "hook stdout is not a JSON object: " + textutil.Truncate(stdout, 200)
			if failClosed {
				return protocol.FailedClosed(r.Command, "unparseable stdout (expected a JSON object)"), note, nil
			}
			return nil, note, nil
		}
	}
	switch {
	case r.ExitCode == 2:
		if !cursorRefuses(cursorEvent) || !ev.Can(protocol.CapBlock) {
			return nil, "exit code 2 has no effect on " + cursorEvent, nil
		}
		msg := firstNonEmpty(stderr, str(obj, "agent_message"), str(obj, "user_message"), protocol.ClaudeDefaultBlockReason)
		return &protocol.Contribution{Decision: protocol.DecisionBlock, Message: msg}, "", nil
	case r.ExitCode != 0:
		line, _, _ := strings.Cut(stderr, "\n")
		note := "hook " + protocol.ExitText(r.ExitCode)
		if line != "" {
			note += ": " + line
		}
		if failClosed {
			return protocol.FailedClosed(r.Command, protocol.ExitText(r.ExitCode)), note, nil
		}
		return nil, note, nil
	case obj == nil:
		return nil, "", nil
	}
	c, note, ok := cursorJSON(cursorEvent, reads, ev, obj)
	if !ok && failClosed {
		return protocol.FailedClosed(r.Command, "unreadable reply: "+note), note, nil
	}
	if c.IsEmpty() {
		return nil, note, obj
	}
	return c, note, obj
}

// cursorJSON applies a reply object; ok is false when a field Cursor reads
// here holds something Cursor would refuse (then nothing applies).
func cursorJSON(event string, reads cursorReads, ev *protocol.Event, obj map[string]any) (c *protocol.Contribution, note string, ok bool) {
	c = &protocol.Contribution{}
	var notes []string
	ignored := func(key string) {
		if _, present := obj[key]; present {
			notes = append(notes, key+" has no effect on "+event)
		}
	}
	decide := func(d protocol.Decision, msg string, can protocol.Capability) {
		if !ev.Can(can) {
			notes = append(notes, "a "+string(d)+" has no effect on "+event+" here")
			return
		}
		c.Decision, c.Message = d, msg
	}
	if reads&cursorPermission != 0 {
		reason := firstNonEmpty(str(obj, "agent_message"), str(obj, "user_message"))
		switch p := obj["permission"]; p {
		case nil:
		case "allow":
			decide(protocol.DecisionAllow, "", protocol.CapApprove)
		case "deny":
			decide(protocol.DecisionBlock, firstNonEmpty(reason, protocol.ClaudeDefaultBlockReason), protocol.CapBlock)
		case "ask":
			decide(protocol.DecisionAsk, reason, protocol.CapApprove)
		default:
			return nil, `permission must be "allow", "deny" or "ask"`, false
		}
	} else {
		ignored("permission")
	}
	if v, present := obj["updated_input"]; present && v != nil {
		m, isObj := v.(map[string]any)
		switch {
		case reads&cursorUpdatedInput == 0 || !ev.Can(protocol.CapModify):
			ignored("updated_input")
		case !isObj:
			return nil, "updated_input must be an object", false
		default:
			c.Args, c.ReplaceArgs = m, true
		}
	}
	if v, present := obj["continue"]; present {
		cont, isBool := v.(bool)
		switch {
		case reads&cursorContinue == 0:
			ignored("continue")
		case !isBool:
			return nil, "continue must be a boolean", false
		case !cont:
			decide(protocol.DecisionBlock, firstNonEmpty(str(obj, "user_message"), protocol.ClaudeDefaultBlockReason), protocol.CapBlock)
		}
	}
	if s := str(obj, "followup_message"); s != "" {
		if reads&cursorFollowup != 0 {
			decide(protocol.DecisionBlock, s, protocol.CapContinue)
		} else {
			ignored("followup_message")
		}
	}
	if s := str(obj, "additional_context"); s != "" {
		if reads&cursorContext != 0 && ev.Can(protocol.CapContext) {
			c.Context = s
		} else {
			ignored("additional_context")
		}
	}
	if env, isObj := obj["env"].(map[string]any); isObj && reads&cursorEnv != 0 {
		for k, v := range env {
			if s, isStr := v.(string); isStr {
				if c.Env == nil {
					c.Env = map[string]string{}
				}
				c.Env[k] = s
			}
		}
	}
	return c, strings.Join(notes, "; "), true
}
