package agents

import (
	"fmt"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Cursor: camelCase events, a flat snake_case payload with Cursor's own tool
// names, and flat replies ({permission, user_message, agent_message},
// {continue}, {followup_message}, {additional_context}); no exit-code
// protocol beyond "2 denies".
func newCursor() *Agent {
	return &Agent{
		Name: "cursor",
		Source: Source{ConfigKey: "cursor_hooks", Flag: "cursor-hooks", What: "Cursor hooks",
			FlagHelp: "also load hooks from this Cursor hooks.json; they speak Cursor's protocol (repeatable)",
			Flat:     true, Codec: cursorCodec{}, ProjectMarker: ".cursor", ProjectLevels: 1},
		Title:    "Cursor",
		EventKey: "hook_event_name",
		Events: map[string]string{
			"preToolUse":           "pre_tool_call",
			"postToolUse":          "post_tool_call",
			"postToolUseFailure":   "PostToolUseFailure",
			"beforeShellExecution": "pre_tool_call",
			"beforeMCPExecution":   "pre_tool_call",
			"beforeReadFile":       "pre_tool_call",
			"afterShellExecution":  "post_tool_call",
			"afterMCPExecution":    "post_tool_call",
			"afterFileEdit":        "post_tool_call",
			"beforeSubmitPrompt":   "pre_llm_call",
			"stop":                 "pre_verify",
			"subagentStart":        "subagent_start",
			"subagentStop":         "subagent_stop",
			"sessionStart":         "on_session_start",
			"sessionEnd":           "on_session_end",
			"preCompact":           "PreCompact",
		},
		HookFile: HookFile{
			Project: ".cursor/hooks.json",
			User:    ".cursor/hooks.json",
			Layout:  Flat,
			// The per-tool preToolUse/postToolUse cover shell, MCP and file
			// tools, so the older per-action events (beforeShellExecution …)
			// are left out: with both, a guard would run twice per command.
			Events: []string{"preToolUse", "postToolUse", "beforeSubmitPrompt", "stop", "subagentStop", "sessionStart", "sessionEnd"},
			// Cursor's default hook timeout is not documented, and a hook
			// it kills lets the call through: say it (seconds, Cursor's
			// unit), so that `hook cursor` answers a guard that hangs
			// before Cursor gives up (--agent-timeout).
			Extra: []pyjson.Member{{Key: "timeout", Value: int64(600)}},
		},
		decode: decodeCursor,
		encode: encodeCursor,
		// Cursor shows user_message with a deny or an ask only: no line on a call it lets run.
		notice: noticeNone,
		roots:  cursorRoots,
	}
}

// cursorRoots are the payload's workspace_roots: the projects open in the
// editor, whose hooks apply whatever the payload's cwd.
func cursorRoots(p map[string]any) []string {
	list, _ := p["workspace_roots"].([]any)
	var out []string
	for _, r := range list {
		if s, ok := r.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// cursorEditTools are Cursor's other file tools and the canonical tool a
// guard sees them as (cursorTools has one Cursor name per canonical tool,
// the one a Cursor hook is shown): StrReplace edits a file as Edit does,
// Delete removes one, a write of nothing.
var cursorEditTools = map[string]string{"StrReplace": "patch", "Delete": "write_file"}

func decodeCursor(name string, _ *protocol.Event, p map[string]any) map[string]any {
	f := copyFields(p, 4)
	alias(f, "conversation_id", "session_id")
	if _, ok := f["cwd"]; !ok {
		// Most Cursor events name the workspace, not a cwd: the first
		// root is the project whose hooks apply.
		if roots, ok := p["workspace_roots"].([]any); ok && len(roots) > 0 {
			if r, ok := roots[0].(string); ok && r != "" {
				f["cwd"] = r
			}
		}
	}
	tool := func(t string) { f["tool_name"] = t }
	switch name {
	case "preToolUse", "postToolUse", "postToolUseFailure":
		if s, ok := p["tool_name"].(string); ok {
			if c, ok := cursorTools()[s]; ok {
				tool(c)
			} else if c, ok := cursorEditTools[s]; ok {
				tool(c)
			}
		}
		f["args"] = argsObject(p["tool_input"])
		if out, ok := p["tool_output"]; ok {
			f["result"] = out
		}
	case "beforeShellExecution", "afterShellExecution":
		tool("terminal")
		f["args"] = map[string]any{"command": p["command"]}
		if out, ok := p["output"]; ok {
			f["result"] = out
		}
	case "beforeMCPExecution", "afterMCPExecution":
		f["args"] = argsObject(p["tool_input"])
		if out, ok := p["result_json"]; ok {
			f["result"] = out
		}
	case "beforeReadFile":
		tool("read_file")
		f["args"] = map[string]any{"path": p["file_path"]}
	case "afterFileEdit":
		tool("patch")
		f["args"] = map[string]any{"path": p["file_path"], "edits": p["edits"]}
	case "beforeSubmitPrompt":
		alias(f, "prompt", "user_message")
	case "stop", "subagentStop":
		if n, ok := p["loop_count"]; ok {
			// A follow-up already ran: Claude's stop_hook_active.
			f["stop_hook_active"] = fmt.Sprint(n) != "0" && n != nil
		}
	}
	return f
}

// jsonObject reads Cursor's tool_input, an object or a JSON string of one.
func jsonObject(v any) any {
	if s, ok := v.(string); ok {
		if d, err := pyjson.Decode([]byte(s)); err == nil {
			if m, ok := d.(map[string]any); ok {
				return m
			}
		}
		return map[string]any{}
	}
	if m, ok := v.(map[string]any); ok {
		return m
	}
	return map[string]any{}
}

func encodeCursor(c *Call, o *protocol.Outcome) Reply {
	var obj protocol.Object
	msg := func() {
		if o.Message != "" {
			obj = append(obj, protocol.KV{Key: "user_message", Value: o.Message}, protocol.KV{Key: "agent_message", Value: o.Message})
		}
	}
	switch c.AgentEvent {
	case "preToolUse", "beforeShellExecution", "beforeMCPExecution", "beforeReadFile", "subagentStart":
		perm := map[protocol.Decision]string{protocol.DecisionBlock: "deny", protocol.DecisionAsk: "ask", protocol.DecisionAllow: "allow"}[o.Decision]
		askLost := c.AgentEvent == "beforeReadFile" && perm == "ask"
		if askLost {
			perm = "deny" // reads know only allow and deny: fail safe
		}
		// Cursor has no stop before a tool, and only preToolUse applies
		// rewritten arguments: either refuses the call rather than let it
		// run as announced (issue 31, item 6).
		rewriteLost := o.Args != nil && c.AgentEvent != "preToolUse"
		if c.Event.Gating() && perm != "deny" && (o.Stop || rewriteLost) {
			reason := firstNonEmpty(o.StopReason, o.Message, "Stopped by hook") + " (hermes-hooks: a hook asked to stop the agent, which Cursor cannot do before a tool; this call is refused)"
			if o.Stop {
				c.refuses("Cursor cannot stop the agent before a tool; this call is refused")
			} else {
				// An ask's question first: the retried call is asked.
				reason = textutil.JoinNonEmpty("\n\n", o.Message, rewriteRefusal(c, "Cursor's "+c.AgentEvent, o))
			}
			obj = append(obj, protocol.KV{Key: "permission", Value: "deny"},
				protocol.KV{Key: "user_message", Value: reason}, protocol.KV{Key: "agent_message", Value: reason})
			break
		}
		if askLost {
			reason := askRefused(c, o, "Cursor cannot ask before a file read; this read is refused")
			obj = append(obj, protocol.KV{Key: "permission", Value: perm},
				protocol.KV{Key: "user_message", Value: reason}, protocol.KV{Key: "agent_message", Value: reason})
		} else if perm != "" {
			obj = append(obj, protocol.KV{Key: "permission", Value: perm})
			msg()
		}
		if o.Args != nil && c.AgentEvent == "preToolUse" {
			obj = append(obj, protocol.KV{Key: "updated_input", Value: o.Args})
		}
	case "beforeSubmitPrompt":
		if o.Decision == protocol.DecisionBlock || o.Stop {
			obj = append(obj, protocol.KV{Key: "continue", Value: false})
			if m := firstNonEmpty(o.Message, o.StopReason); m != "" {
				obj = append(obj, protocol.KV{Key: "user_message", Value: m})
			}
		}
	case "stop", "subagentStop":
		// Keep going: Cursor submits the message as the next user turn.
		if o.Decision == protocol.DecisionBlock {
			obj = append(obj, protocol.KV{Key: "followup_message", Value: blockReason(o)})
		} else if o.Context != "" {
			obj = append(obj, protocol.KV{Key: "followup_message", Value: o.Context})
		}
	case "sessionStart":
		if ctx := joinContext(o); ctx != "" {
			obj = append(obj, protocol.KV{Key: "additional_context", Value: ctx})
		}
		if len(o.Env) > 0 {
			obj = append(obj, protocol.KV{Key: "env", Value: o.Env})
		}
	case "postToolUse":
		ctx := joinContext(o)
		if o.Decision == protocol.DecisionBlock && o.Message != "" {
			// Cursor cannot refuse a result that exists: the feedback
			// reaches the model as context.
			ctx = textutil.JoinNonEmpty("\n\n", o.Message, ctx)
		}
		if ctx != "" {
			obj = append(obj, protocol.KV{Key: "additional_context", Value: ctx})
		}
	}
	return jsonReply(obj)
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}
