package agents

import (
	"strings"
	"sync"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Kiro CLI (the agent-config hooks of its 1.x/2.x "V2" harness, inherited
// from Amazon Q Developer CLI): hooks live in an agent's configuration,
// .kiro/agents/NAME.json, as {"hooks": {EVENT: [{"command", "matcher",
// "timeout_ms"}]}}. A hook reads {"hook_event_name", "cwd", "prompt",
// "tool_name", "tool_input", "tool_response"} on stdin and answers with its
// exit code alone: 0 and stdout is context for the model (agentSpawn,
// userPromptSubmit; captured and dropped elsewhere), 2 on preToolUse
// refuses the tool call with stderr as the model's error, anything else is
// a warning shown to the user (stderr) and changes nothing. No JSON is
// read. Facts and sources: docs/agent-protocols.md.
func newKiro() *Agent {
	return &Agent{
		Name:     "kiro",
		Title:    "Kiro CLI",
		EventKey: "hook_event_name",
		Events: map[string]string{
			"agentSpawn":       "on_session_start",
			"userPromptSubmit": "pre_llm_call",
			"preToolUse":       "pre_tool_call",
			"postToolUse":      "post_tool_call",
			// When the assistant has finished its turn; Kiro reads
			// nothing back (it cannot be made to go on).
			"stop": "pre_verify",
			// Kiro CLI 3 (V3 harness) sends the same events in PascalCase,
			// agentSpawn as SessionStart, and `kiro-cli agent migrate`
			// moves the entries install wrote into its .kiro/hooks/ with
			// their command lines: a payload naming them there must reach
			// the guards, not be skipped as an event of no one's.
			"SessionStart": "on_session_start", "UserPromptSubmit": "pre_llm_call",
			"PreToolUse": "pre_tool_call", "PostToolUse": "post_tool_call", "Stop": "pre_verify",
		},
		HookFile: HookFile{
			// Kiro CLI runs the hooks of the agent it runs: these are the
			// agent "default" of the project, or of the user.
			Project: ".kiro/agents/default.json",
			User:    ".kiro/agents/default.json",
			Layout:  Flat,
			// An agent file has no "version" (Cursor's hooks.json has).
			NoVersion: true,
			// A new agent file gets every tool: without "tools" Kiro gives
			// the agent none.
			Init: []pyjson.Member{{Key: "tools", Value: []any{"*"}}},
			// No matcher: every tool. Kiro's default timeout is 30 s and a
			// hook that times out lets the tool call through: give the
			// dispatch room (and a consent prompt time).
			Extra:  []pyjson.Member{{Key: "timeout_ms", Value: int64(600000)}},
			Events: []string{"agentSpawn", "userPromptSubmit", "preToolUse", "postToolUse", "stop"},
			Notice: "Kiro CLI runs these hooks only in the agent this file defines, \"default\": start it with kiro-cli chat --agent default (or kiro-cli settings chat.defaultAgent default). Kiro CLI 3's V3 harness reads hooks from .kiro/hooks/ instead and runs agent-config hooks only until they are migrated.",
		},
		// timeout_ms defaults to 30000 [K-SRC hook.rs `Hook`].
		HookTimeout: 30 * time.Second,
		decode:      decodeKiro,
		encode:      encodeKiro,
		shapes:      kiroShapes,
		// Kiro CLI shows a hook's stderr only as a failed hook's warning (exit 1).
		notice:      noticeNone,
		textReplies: true,
	}
}

// kiroTools maps Kiro CLI's built-in tool names to Claude Code's, the
// names the dispatcher's tool table takes from there (execute_bash is
// Bash, so Hermes hooks see terminal). fs_write is both Write and Edit:
// its "command" says which. MCP tools (@server/tool) and the tools without
// a twin (use_aws, knowledge …) pass through.
var kiroTools = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"execute_bash": "Bash", "execute_cmd": "Bash", "shell": "Bash",
		"fs_read": "Read", "read": "Read", "fs_write": "Write", "write": "Write",
		"grep": "Grep", "glob": "Glob", "todo_list": "TodoWrite", "delegate": "Task",
		"web_fetch": "WebFetch", "web_search": "WebSearch",
	}
})

// kiroShapes: fs_read batches what it reads in operations, each with its
// path (Line, Directory, Search) or image_paths (Image): a read guard
// sees them all as paths (and file_path when they are one file).
var kiroShapes = map[string]toolShape{
	"fs_read": pathsShape(func(in map[string]any) []any {
		if _, ok := in["operations"]; !ok {
			return nil
		}
		return listed(in["operations"], "path", "image_paths")
	}, nil),
}

// kiroMCP splits Kiro's name of an MCP tool, @server/tool: the call is
// presented as Claude Code names it (mcp__server__tool), so that an MCP
// guard written in Claude's or Hermes' spelling sees it.
func kiroMCP(name string) (server, tool string, ok bool) {
	rest, ok := strings.CutPrefix(name, "@")
	if !ok {
		return "", "", false
	}
	server, tool, ok = strings.Cut(rest, "/")
	return server, tool, ok && server != "" && tool != ""
}

// kiroArgs are fs_write's and fs_read's argument names → Claude Code's.
var kiroArgs = [][2]string{{"path", "file_path"}, {"file_text", "content"}, {"old_str", "old_string"}, {"new_str", "new_string"}}

// decodeKiro is the Claude decoding of Kiro's payload once its tool names
// and file arguments have their Claude twins (the originals stay), and the
// tool's result its Hermes text.
func decodeKiro(name string, ev *protocol.Event, p map[string]any) map[string]any {
	f := copyFields(p, 2)
	tool, _ := p["tool_name"].(string)
	if c, ok := kiroTools()[tool]; ok {
		f["tool_name"] = c
	} else if server, t, ok := kiroMCP(tool); ok {
		f["tool_name"] = "mcp__" + server + "__" + t
	}
	if in, ok := shaped(kiroShapes, tool, p["tool_input"]).(map[string]any); ok {
		in = copyFields(in, 2)
		if c, _ := in["command"].(string); f["tool_name"] == "Write" && c != "create" && c != "" {
			f["tool_name"] = "Edit" // str_replace, insert, append
		}
		if _, native := kiroTools()[tool]; native {
			showTwins(in, kiroArgs)
		}
		f["tool_input"] = in
	} else if ev.Tool {
		f["tool_input"] = map[string]any{}
	}
	if r, ok := p["tool_response"].(map[string]any); ok {
		// {success, result: [text …]}: the text is the Hermes result.
		if text, ok := kiroText(r["result"]); ok {
			f["result"] = text
		}
	}
	return decodeClaude(name, ev, f)
}

// kiroText is the text of a Kiro tool result: a string or a list of them.
func kiroText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case []any:
		var parts []string
		for _, p := range x {
			if s, ok := p.(string); ok {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, "\n"), len(parts) > 0
	}
	return "", false
}

// kiroAnswer is how Kiro CLI reads a hook's answer to one of its events.
type kiroAnswer int

const (
	kiroReadsNothing kiroAnswer = iota
	// kiroTool: exit 2 refuses the tool call, stderr the reason.
	kiroTool
	// kiroContext: stdout is context (agentSpawn, SessionStart).
	kiroContext
	// kiroPromptWarns: stdout is context, and a prompt cannot be refused
	// (Kiro CLI 2: a failed hook's stderr is shown, the prompt goes on).
	kiroPromptWarns
	// kiroPromptBlocks: stdout is context, exit 2 refuses the prompt
	// (Kiro CLI 3, kiro.dev/docs/cli/v3/hooks: "2 = block for
	// PreToolUse/UserPromptSubmit").
	kiroPromptBlocks
)

// kiroAnswers are Kiro's events by the name its payload gives them (Kiro
// CLI 3's PascalCase beside 2's camelCase) and how it reads an answer.
var kiroAnswers = map[string]kiroAnswer{
	"preToolUse": kiroTool, "PreToolUse": kiroTool,
	"agentSpawn": kiroContext, "SessionStart": kiroContext,
	"userPromptSubmit": kiroPromptWarns, "UserPromptSubmit": kiroPromptBlocks,
}

// encodeKiro writes the outcome as Kiro CLI reads a hook's exit code and
// output: only what the event reads, so that nothing in the reply means
// something the outcome did not say.
func encodeKiro(c *Call, o *protocol.Outcome) Reply {
	answer := kiroAnswers[c.AgentEvent]
	switch {
	case answer == kiroTool:
		// Exit 2 is the only answer Kiro reads here: the refusal, its
		// stderr the tool's error for the model. An allow is Kiro's own
		// permission settings' to decide, and stdout is dropped. What Kiro
		// cannot do from a hook — ask a human, stop the agent, run
		// rewritten arguments — refuses the call rather than let it run as
		// announced (issue 31, item 6).
		if msg := kiroRefusal(c, o); msg != "" {
			return Reply{Exit: 2, Stderr: []byte(msg + "\n")}
		}
		return Quiet
	case answer == kiroPromptBlocks && o.Decision == protocol.DecisionBlock:
		return Reply{Exit: 2, Stderr: []byte(blockReason(o) + "\n")}
	case answer == kiroPromptWarns && o.Decision == protocol.DecisionBlock:
		// Kiro cannot refuse a prompt: a failed hook's stderr is shown
		// to the user, and the prompt goes on — say so.
		return Reply{Exit: 1, Stderr: []byte("hermes-hooks: " + blockReason(o) + " (Kiro CLI cannot refuse a prompt from a hook: it goes on)\n")}
	case answer != kiroReadsNothing:
		if ctx := joinContext(o); ctx != "" {
			return Reply{Stdout: []byte(ctx + "\n")}
		}
	}
	return Quiet
}

// kiroRefusal is the reason a preToolUse call is refused ("" when it runs):
// a block, and each decision Kiro has no way to carry out.
func kiroRefusal(c *Call, o *protocol.Outcome) string {
	switch {
	case o.Decision == protocol.DecisionBlock:
		return blockReason(o)
	case o.Stop:
		c.refuses("Kiro CLI cannot stop the agent from a hook; this call is refused")
		return firstNonEmpty(o.StopReason, o.Message, "Stopped by hook") + " (hermes-hooks: a hook asked to stop the agent, which Kiro CLI cannot do from a hook; this call is refused)"
	case o.Decision == protocol.DecisionAsk:
		return askRefused(c, o, "Kiro CLI cannot ask from a hook; this call is refused")
	case o.Args != nil && c.Event.Tool:
		return rewriteRefusal(c, "Kiro CLI", o)
	}
	return ""
}
