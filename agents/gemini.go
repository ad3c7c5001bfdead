package agents

import (
	"strings"
	"sync"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Gemini CLI (0.61): its own event names (BeforeTool, AfterAgent …) and
// tool names (run_shell_command, replace …), a snake_case payload naming
// the event in hook_event_name, and flat JSON replies — decision
// allow|deny|block|ask, reason, continue, stopReason, systemMessage,
// hookSpecificOutput{tool_input, additionalContext} — read whatever the exit
// code. Its hook file is .gemini/settings.json, in Claude Code's grouped
// shape with timeouts in milliseconds; the scripts there speak Gemini's
// protocol, which geminiCodec (gemini_dialect.go) writes and reads when
// hermes-hooks runs them. Facts and sources: docs/agent-protocols.md.
func newGemini() *Agent {
	return &Agent{
		Name: "gemini",
		Source: Source{ConfigKey: "gemini_settings", Flag: "gemini-settings", What: "Gemini CLI settings",
			FlagHelp:      "also load hooks from this Gemini CLI settings.json (repeatable)",
			ProjectMarker: ".gemini", ProjectLevels: 1,
			Document: geminiDocument, Handler: geminiHandler, Env: geminiHookEnv, Matcher: geminiMatcher, Codec: geminiCodec{},
			Sequential: sequentialTrue},
		Title: "Gemini CLI",
		// Gemini CLI 0.61.0 stops on a settings file that starts with a
		// byte order mark: JSON.parse refuses it (e2e TestBOMAgentFiles).
		NoBOM:    true,
		EventKey: "hook_event_name",
		Events:   geminiEventMap(),
		HookFile: HookFile{
			// Gemini CLI merges the hooks of the system, user and project
			// settings; a project's (and, in an untrusted folder, the
			// user's too) run only once the folder is trusted.
			Project: ".gemini/settings.json",
			Off:     geminiOff,
			User:    ".gemini/settings.json",
			// Gemini CLI's home folder, when set (storage.ts homedir()):
			// $GEMINI_CLI_HOME/.gemini/settings.json.
			UserEnv: "GEMINI_CLI_HOME",
			Layout:  Grouped,
			// Milliseconds. Gemini's default is 60 s, and a hook that times
			// out lets the tool call through: give the dispatch room.
			Extra:     []pyjson.Member{{Key: "timeout", Value: int64(600000)}},
			TimeoutMS: true,
			// On Windows Gemini CLI runs the one command with PowerShell
			// (-NoProfile -NonInteractive -Command), which cannot run the
			// POSIX form.
			CommandShellWindows: PowerShell,
			Notice:              "Gemini CLI runs a project's hooks only in a folder you trust (it asks on first start in the folder; --skip-trust or GEMINI_CLI_TRUST_WORKSPACE=true trust it for one run).",
			// BeforeModel and AfterModel only observe here (pre_api_request,
			// post_api_request), and AfterModel fires for every streamed
			// chunk: neither is registered, so no model call waits for a
			// process that has nothing to decide.
			Events: []string{"BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent",
				"SessionStart", "SessionEnd", "PreCompress", "Notification"},
		},
		// DEFAULT_HOOK_TIMEOUT = 6e4 ms [hooks/hookRunner.js].
		HookTimeout:     60 * time.Second,
		ProjectEnv:      "GEMINI_PROJECT_DIR",
		StartFolderOnly: true,
		decode:          decodeGemini,
		shapes:          geminiShapes,
		encode:          encodeGemini,
		// systemMessage, read on every event.
		notice: noticeSystemMessage,
	}
}

// GeminiReads is what Gemini CLI reads in a hook's reply to one of its
// events, beyond systemMessage (read on every event). It is named for the
// Gemini CLI family: forks that keep its protocol can reuse it.
type GeminiReads uint8

const (
	// GeminiStops: continue:false stops the agent (stopReason, else
	// reason, is the message).
	GeminiStops GeminiReads = 1 << iota
	// GeminiDenies: decision "deny" (or "block") refuses with reason: the
	// tool call (BeforeTool), the tool's result (AfterTool: the reason
	// replaces it), the prompt (BeforeAgent), the model call
	// (BeforeModel, AfterModel); on AfterAgent it rejects the answer and
	// the reason is the next prompt.
	GeminiDenies
	// GeminiAsks: decision "ask" makes the user confirm the tool call,
	// systemMessage shown with the question (BeforeTool).
	GeminiAsks
	// GeminiContext: hookSpecificOutput.additionalContext reaches the
	// model (AfterTool: appended to the result; BeforeAgent: to the
	// prompt; SessionStart: before the first prompt).
	GeminiContext
	// GeminiToolInput: hookSpecificOutput.tool_input becomes the tool's
	// arguments (BeforeTool).
	GeminiToolInput
)

// geminiEvent is one Gemini CLI event: its canonical twin and what its
// hooks' replies can do.
type geminiEvent struct {
	canon string
	reads GeminiReads
}

// geminiEvents are Gemini CLI's events with a canonical twin.
// BeforeToolSelection (a hook narrows the tools the model may call) has
// none: hermes-hooks' events offer no tool list to change.
var geminiEvents = sync.OnceValue(func() map[string]geminiEvent {
	both := GeminiStops | GeminiDenies
	return map[string]geminiEvent{
		"BeforeTool":   {"pre_tool_call", both | GeminiAsks | GeminiToolInput},
		"AfterTool":    {"post_tool_call", both | GeminiContext},
		"BeforeAgent":  {"pre_llm_call", both | GeminiContext},
		"AfterAgent":   {"pre_verify", both},
		"BeforeModel":  {"pre_api_request", both},
		"AfterModel":   {"post_api_request", both},
		"SessionStart": {"on_session_start", GeminiContext},
		"SessionEnd":   {"on_session_end", 0},
		"PreCompress":  {"PreCompact", 0},
		"Notification": {"Notification", 0},
	}
})

func geminiEventMap() map[string]string {
	m := make(map[string]string, len(geminiEvents()))
	for n, e := range geminiEvents() {
		m[n] = e.canon
	}
	return m
}

// geminiTools maps Gemini CLI's built-in tool names to Claude Code's, the
// names the dispatcher's tool table takes from there (run_shell_command is
// Bash, so Hermes hooks see terminal). Gemini's arguments already use
// Claude's names (command, file_path, old_string, new_string, content).
// MCP tools (mcp_SERVER_TOOL, as Hermes names them) and the tools without
// a twin (read_many_files, activate_skill …) pass through.
var geminiTools = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"run_shell_command": "Bash", "read_file": "Read", "write_file": "Write", "replace": "Edit",
		"glob": "Glob", "grep_search": "Grep", "list_directory": "LS",
		"web_fetch": "WebFetch", "google_web_search": "WebSearch",
		"write_todos": "TodoWrite", "ask_user": "AskUserQuestion", "invoke_agent": "Task",
	}
})

// geminiShapes: web_fetch fetches the URLs its prompt holds (up to 20);
// read_file names its file absolute_path in some releases.
var geminiShapes = map[string]toolShape{"web_fetch": promptShape, "read_file": absolutePathShape}

// absolutePathShape is Gemini CLI's and Qwen Code's read_file, whose
// file is absolute_path in the releases that do not call it file_path
// (Qwen Code 0.x, Gemini CLI before its rename). Read as sent, a secrets
// guard judging path and file_path found no file and let `.env` be read.
// The file is shown as file_path too; when the model also sent a
// file_path (its decoy, or the host's own name), both are in paths, so a
// guard judges each rather than the one the host may not read.
var absolutePathShape = pathsShape(func(in map[string]any) []any {
	abs, ok := in["absolute_path"]
	if !ok {
		return nil
	}
	if fp, ok := in["file_path"]; ok {
		return []any{fp, abs}
	}
	return []any{abs}
}, nil)

// geminiToolNames is geminiTools reversed: Claude Code's name → Gemini's.
var geminiToolNames = sync.OnceValue(func() map[string]string {
	m := make(map[string]string, len(geminiTools()))
	for g, c := range geminiTools() {
		m[c] = g
	}
	return m
})

// GeminiToolName returns Gemini CLI's name for a tool named in either the
// Hermes or the Claude dialect (terminal and Bash are run_shell_command);
// names it does not know pass through.
func GeminiToolName(name string, tools *protocol.ToolTable) string {
	if g, ok := geminiToolNames()[tools.Claude(name)]; ok {
		return g
	}
	return name
}

// decodeGemini is the Claude decoding of Gemini's payload, once its tool
// names are Claude Code's and its fields have their Claude and Hermes
// twins: the tool's result text (AfterTool), the final answer (AfterAgent)
// and the model of a model call.
func decodeGemini(name string, ev *protocol.Event, p map[string]any) map[string]any {
	f := copyFields(p, 4)
	if t, ok := p["tool_name"].(string); ok {
		if c, ok := geminiTools()[t]; ok {
			f["tool_name"] = c
		}
	}
	if ev.Tool {
		tool, _ := p["tool_name"].(string)
		f["tool_input"] = shaped(geminiShapes, tool, f["tool_input"])
		if _, ok := f["tool_input"].(map[string]any); !ok {
			f["tool_input"] = map[string]any{}
		}
	}
	if r, ok := p["tool_response"].(map[string]any); ok {
		// {llmContent, returnDisplay, error}: what the model reads is the
		// Hermes result.
		if text, ok := geminiText(r["llmContent"]); ok {
			f["result"] = text
		}
	}
	alias(f, "prompt_response", "last_assistant_message")
	if req, ok := p["llm_request"].(map[string]any); ok {
		if m, ok := req["model"]; ok {
			if _, set := f["model"]; !set {
				f["model"] = m
			}
		}
	}
	return decodeClaude(name, ev, f)
}

// geminiText is the text of a Gemini tool result's llmContent: a string,
// a part {text}, or a list of them.
func geminiText(v any) (string, bool) {
	switch x := v.(type) {
	case string:
		return x, true
	case map[string]any:
		s, ok := x["text"].(string)
		return s, ok
	case []any:
		var parts []string
		for _, p := range x {
			if s, ok := geminiText(p); ok {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, ""), len(parts) > 0
	}
	return "", false
}

// encodeGemini writes the outcome as Gemini CLI reads a hook's JSON stdout
// (exit 0): only what the event reads (GeminiReads), so that nothing in
// the reply means something the outcome did not say.
func encodeGemini(c *Call, o *protocol.Outcome) Reply {
	reads := geminiEvents()[c.AgentEvent].reads
	var obj protocol.Object
	add := func(k string, v any) { obj = append(obj, protocol.KV{Key: k, Value: v}) }
	sysMsg := o.SystemMessage
	switch {
	case o.Decision == protocol.DecisionBlock && reads&GeminiDenies != 0:
		add("decision", "deny")
		add("reason", blockReason(o))
	case o.Decision == protocol.DecisionAsk && reads&GeminiAsks != 0:
		// Gemini shows the systemMessage with its confirmation, not the
		// reason: the question goes there.
		add("decision", "ask")
		if !hasLine(sysMsg, o.Message) {
			// A Gemini hook's question is its systemMessage already
			// (geminiCodec): shown once, not twice.
			sysMsg = textutil.JoinNonEmpty("\n\n", o.Message, sysMsg)
		}
	case o.Decision == protocol.DecisionAllow && reads&GeminiAsks != 0:
		// Documented; Gemini 0.61's code does nothing more for it than
		// for no decision (its own policy still applies).
		add("decision", "allow")
	}
	if o.Stop && reads&GeminiStops != 0 {
		add("continue", false)
		if o.StopReason != "" {
			add("stopReason", o.StopReason)
		}
	}
	if sysMsg != "" {
		add("systemMessage", sysMsg)
	}
	hso := protocol.Object{{Key: "hookEventName", Value: c.AgentEvent}}
	if o.Args != nil && reads&GeminiToolInput != 0 {
		// Gemini 0.61 builds the tool from this object alone (its docs
		// say it is merged): the whole rewritten arguments.
		hso = append(hso, protocol.KV{Key: "tool_input", Value: o.Args})
	}
	if ctx := joinContext(o); ctx != "" && reads&GeminiContext != 0 {
		hso = append(hso, protocol.KV{Key: "additionalContext", Value: ctx})
	}
	if len(hso) > 1 {
		add("hookSpecificOutput", hso)
	}
	return jsonReply(obj)
}

// hasLine reports whether part is one of the messages the fold joined
// into all, a line apart (protocol.Fold's system messages).
func hasLine(all, part string) bool {
	return all == part || strings.HasPrefix(all, part+"\n") || strings.HasSuffix(all, "\n"+part) || strings.Contains(all, "\n"+part+"\n")
}
