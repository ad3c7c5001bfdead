package agents

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// GitHub Copilot CLI (1.0.102) has two payload formats, chosen by how the
// hook file names the event:
//
//   - camelCase (preToolUse, agentStop …): camelCase fields (sessionId,
//     toolName with Copilot's own tool names, toolArgs), and no event name
//     in the payload — `hook copilot EVENT` takes it from the command line;
//   - PascalCase (PreToolUse, Stop …, "VS Code compatible"): snake_case
//     fields with hook_event_name, tool_name as Claude Code names the tool
//     (Bash, Read, Edit …) and tool_input.
//
// Both read the same flat replies: {permissionDecision,
// permissionDecisionReason, modifiedArgs}, {behavior, message, interrupt},
// {decision, reason}, {additionalContext}, {modifiedResult}. `install`
// registers the PascalCase names only: their payload is Claude's, so tool
// names go through the same table as Claude Code's, and registering both
// spellings would run every hook twice.
// Facts and sources: docs/agent-protocols.md.
func newCopilot() *Agent {
	return &Agent{
		Name: "copilot",
		Source: Source{ConfigKey: "copilot_hooks", Flag: "copilot-hooks", What: "Copilot hooks",
			FlagHelp:      "also load hooks from this GitHub Copilot CLI hook file (repeatable)",
			ProjectMarker: ".github", ProjectLevels: 2, FlatToo: true,
			Handler: copilotHandler, Matcher: copilotMatcher, Codec: copilotCodec{}},
		Title: "GitHub Copilot CLI",
		// Copilot CLI 1.0.102 runs no hook of a hook file that starts with
		// a byte order mark, and says nothing (e2e TestBOMAgentFiles).
		NoBOM:    true,
		EventKey: "hook_event_name",
		Events:   copilotEventMap(),
		HookFile: HookFile{
			// Any *.json in these directories is read; "command" is Copilot's
			// cross-platform field (copied to bash and powershell).
			Project: ".github/hooks/hermes-hooks.json",
			Off:     offByDisableAll,
			User:    ".copilot/hooks/hermes-hooks.json",
			// Copilot reads $COPILOT_HOME/hooks instead where that is set
			// (hooks reference, "Hooks locations").
			UserEnv: "COPILOT_HOME",
			Layout:  Flat,
			Typed:   true,
			// Copilot's default is 30 s, and a preToolUse hook that times
			// out lets the tool call through: give the dispatch room.
			Extra: []pyjson.Member{{Key: "timeoutSec", Value: int64(600)}},
			// Copilot runs "powershell" on Windows, "command" (as bash)
			// elsewhere.
			WindowsKey: "powershell", WindowsShell: PowerShell,
			Notice: "Copilot also runs the hooks in a project's .claude/settings.json: where `hermes-hooks install claude` is in place too, every event would run twice there; keep one of the two.",
			Events: []string{"PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit",
				"SessionStart", "SessionEnd", "SubagentStart", "SubagentStop", "Stop", "PreCompact", "Notification"},
		},
		// timeoutSec defaults to 30 [P-DOC "Hook configuration format"].
		HookTimeout: 30 * time.Second,
		decode:      decodeCopilot,
		shapes:      copilotShapes,
		encode:      encodeCopilot,
		// Copilot CLI's replies hold no line for the user: a denial's reason, context for the model.
		notice: noticeNone,
		// VS Code runs .github/hooks/*.json too, and calls with its own
		// payload (hookEventName), reading its own reply.
		hosts: []*Host{vscodeHost(true)},
	}
}

// copilotReply is which reply an event's hooks are read for.
type copilotReply uint8

const (
	// copilotNoReply: output ignored (sessionEnd, preCompact; and
	// userPromptSubmitted, whose command-hook output Copilot drops).
	copilotNoReply copilotReply = iota
	// copilotPreTool: permissionDecision allow / deny / ask (+ reason),
	// modifiedArgs, additionalContext.
	copilotPreTool
	// copilotPermission: behavior allow / deny, message, interrupt.
	copilotPermission
	// copilotPostTool: modifiedResult, additionalContext.
	copilotPostTool
	// copilotContext: additionalContext only.
	copilotContext
	// copilotStop: decision "block" + reason, the next turn's prompt.
	copilotStop
	// copilotPrompt: no JSON is read; exit 2 shows stderr to the user.
	copilotPrompt
)

// copilotEvents are Copilot's events with a canonical twin, under both
// spellings. errorOccurred and userPromptTransformed have none.
var copilotEvents = sync.OnceValue(func() map[string]struct {
	canon string
	reply copilotReply
} {
	return map[string]struct {
		canon string
		reply copilotReply
	}{
		"preToolUse": {"pre_tool_call", copilotPreTool}, "PreToolUse": {"pre_tool_call", copilotPreTool},
		"permissionRequest": {"PermissionRequest", copilotPermission}, "PermissionRequest": {"PermissionRequest", copilotPermission},
		"postToolUse": {"post_tool_call", copilotPostTool}, "PostToolUse": {"post_tool_call", copilotPostTool},
		"postToolUseFailure": {"PostToolUseFailure", copilotContext}, "PostToolUseFailure": {"PostToolUseFailure", copilotContext},
		"userPromptSubmitted": {"pre_llm_call", copilotPrompt}, "UserPromptSubmit": {"pre_llm_call", copilotPrompt},
		"sessionStart": {"on_session_start", copilotContext}, "SessionStart": {"on_session_start", copilotContext},
		"subagentStart": {"subagent_start", copilotContext}, "SubagentStart": {"subagent_start", copilotContext},
		"notification": {"Notification", copilotContext}, "Notification": {"Notification", copilotContext},
		"agentStop": {"pre_verify", copilotStop}, "Stop": {"pre_verify", copilotStop},
		"subagentStop": {"subagent_stop", copilotStop}, "SubagentStop": {"subagent_stop", copilotStop},
		"preCompact": {"PreCompact", copilotNoReply}, "PreCompact": {"PreCompact", copilotNoReply},
		"sessionEnd": {"on_session_end", copilotNoReply}, "SessionEnd": {"on_session_end", copilotNoReply},
	}
})

func copilotEventMap() map[string]string {
	m := make(map[string]string, len(copilotEvents()))
	for n, e := range copilotEvents() {
		m[n] = e.canon
	}
	return m
}

// copilotToolNames is Copilot's documented table of its own tool names
// (the camelCase payload's toolName) and the Claude Code names its
// PascalCase payload uses; the dispatcher's tool table takes it from
// there. Others (MCP tools …) pass through. The first of a row's names is
// the one a camelCase payload built here names the tool with.
var copilotToolNames = []struct {
	claude  string
	copilot []string
}{
	{"Bash", []string{"bash", "powershell"}}, {"Read", []string{"view"}}, {"Write", []string{"create"}},
	{"Edit", []string{"edit", "str_replace_editor", "apply_patch"}}, {"Grep", []string{"grep", "rg"}},
	{"Glob", []string{"glob"}}, {"WebFetch", []string{"web_fetch"}}, {"WebSearch", []string{"web_search"}},
	{"AskUserQuestion", []string{"ask_user"}}, {"TodoWrite", []string{"update_todo"}}, {"Task", []string{"task"}},
}

// copilotShapes: apply_patch (Edit in the Claude-named payload) takes
// its envelope as the input itself or as {input}.
var copilotShapes = map[string]toolShape{"apply_patch": patchShape, "Edit": patchShape}

// copilotTools maps each of Copilot's tool names to its Claude Code name.
var copilotTools = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, r := range copilotToolNames {
		for _, c := range r.copilot {
			m[c] = r.claude
		}
	}
	return m
})

// copilotRuntimeTools maps a Claude Code tool name to the name Copilot's
// camelCase payload gives the tool (the row's first).
var copilotRuntimeTools = sync.OnceValue(func() map[string]string {
	m := make(map[string]string, len(copilotToolNames))
	for _, r := range copilotToolNames {
		m[r.claude] = r.copilot[0]
	}
	// Claude Code's other tools that do what one of these does (protocol's
	// variants): Copilot's own name of it where Copilot has one that
	// stands for the same tool (PowerShell: powershell), else the name of
	// the tool it stands for (MultiEdit, NotebookEdit: edit; Agent: task).
	for v, base := range protocol.ClaudeVariants() {
		if own := strings.ToLower(v); copilotTools()[own] == base {
			m[v] = own
		} else if r, ok := m[base]; ok {
			m[v] = r
		}
	}
	return m
})

// CopilotClaudeTool returns the Claude Code name of one of Copilot's own
// tool names (the camelCase payload's toolName), and whether it has one:
// how a Copilot hook file's matcher on a camelCase event is read.
func CopilotClaudeTool(name string) (string, bool) {
	c, ok := copilotTools()[name]
	return c, ok
}

// copilotCamel are the camelCase payload's fields and their snake_case
// (Claude / VS Code) names, so one decoding serves both formats.
var copilotCamel = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"sessionId": "session_id", "transcriptPath": "transcript_path", "toolName": "tool_name",
		"toolArgs": "tool_input", "toolResult": "tool_result", "initialPrompt": "initial_prompt",
		"stopReason": "stop_reason", "agentId": "agent_id", "agentType": "agent_type",
		"agentName": "agent_name", "agentDisplayName": "agent_display_name", "response": "last_assistant_message",
		"customInstructions": "custom_instructions", "errorContext": "error_context",
	}
})

func decodeCopilot(name string, ev *protocol.Event, p map[string]any) map[string]any {
	snake := copyFields(p, len(copilotCamel()))
	for camel, s := range copilotCamel() {
		alias(snake, camel, s)
	}
	if t, ok := p["toolName"].(string); ok {
		if c, ok := copilotTools()[t]; ok {
			snake["tool_name"] = c
		}
	}
	if ev.Tool {
		// toolArgs may come as the JSON text of the arguments, and
		// apply_patch's as the envelope itself (copilotShapes).
		tool, _ := firstPresent(p, "toolName", "tool_name").(string)
		snake["tool_input"] = argsObject(shaped(copilotShapes, tool, snake["tool_input"]))
	}
	if r, ok := snake["tool_result"].(map[string]any); ok {
		text := r["text_result_for_llm"]
		if text == nil {
			text = r["textResultForLlm"]
		}
		if text != nil {
			alias(snake, "tool_result", "tool_response")
			snake["result"] = text
		}
	}
	if _, ok := snake["agent_type"]; !ok {
		// subagentStart names the agent only; Claude matchers and Hermes'
		// child_role read agent_type.
		alias(snake, "agent_name", "agent_type")
	}
	return decodeClaude(name, ev, snake)
}

func encodeCopilot(c *Call, o *protocol.Outcome) Reply {
	var obj protocol.Object
	add := func(k string, v any) { obj = append(obj, protocol.KV{Key: k, Value: v}) }
	ctx := joinContext(o)
	switch copilotEvents()[c.AgentEvent].reply {
	case copilotNoReply:
		return Quiet
	case copilotPreTool:
		perm := map[protocol.Decision]string{protocol.DecisionBlock: "deny", protocol.DecisionAsk: "ask", protocol.DecisionAllow: "allow"}[o.Decision]
		if o.Stop {
			perm = "deny" // no stop here: at least the tool does not run
			if o.Decision != protocol.DecisionBlock {
				c.refuses("Copilot cannot stop the agent before a tool; this call is refused")
			}
		}
		if perm != "" {
			add("permissionDecision", perm)
			if msg := firstNonEmpty(o.Message, o.StopReason); msg != "" || perm == "deny" {
				// Copilot requires a reason with deny.
				add("permissionDecisionReason", firstNonEmpty(msg, "Blocked by hook"))
			}
		}
		if o.Args != nil {
			add("modifiedArgs", o.Args)
		}
	case copilotPermission:
		switch {
		case o.Decision == protocol.DecisionBlock || o.Stop:
			add("behavior", "deny")
			if msg := firstNonEmpty(o.Message, o.StopReason); msg != "" {
				add("message", msg)
			}
			if o.Stop {
				add("interrupt", true) // deny and stop the agent
			}
		case o.Decision == protocol.DecisionAllow:
			add("behavior", "allow")
		}
		// ask: no behavior, so Copilot's own permission flow asks.
		ctx = ""
	case copilotPostTool:
		if o.Result != nil {
			add("modifiedResult", protocol.Object{{Key: "resultType", Value: "success"}, {Key: "textResultForLlm", Value: *o.Result}})
		}
		if o.Decision == protocol.DecisionBlock && o.Message != "" {
			// Copilot cannot refuse a result that exists: the feedback
			// reaches the model beside it.
			ctx = textutil.JoinNonEmpty("\n\n", o.Message, ctx)
		}
	case copilotContext:
		if o.Decision == protocol.DecisionBlock && o.Message != "" {
			// postToolUseFailure: feedback on the failure (Claude Code's
			// decision "block" there) goes the one way Copilot reads.
			ctx = textutil.JoinNonEmpty("\n\n", o.Message, ctx)
		}
	case copilotStop:
		if o.Decision == protocol.DecisionBlock {
			add("decision", "block")
			add("reason", blockReason(o))
		}
		ctx = ""
	case copilotPrompt:
		// Copilot drops a command hook's JSON here and cannot refuse the
		// prompt; exit 2 is the one signal it shows (stderr, to the user).
		if o.Decision == protocol.DecisionBlock {
			return Reply{Exit: 2, Stderr: []byte(blockReason(o) + "\n")}
		}
		return Quiet
	}
	if ctx != "" {
		add("additionalContext", ctx)
	}
	return jsonReply(obj)
}

// copilotHandler turns a Copilot entry into the Claude Code handler that
// runs the same: bash (what Copilot runs on Linux and macOS) else command,
// as the shell command; exec + args as the exec form; timeoutSec as
// timeout; a powershell-only entry as a powershell command on Windows, and
// not at all elsewhere (Copilot runs it only there). cwd and env have no Claude twin and are reported.
func copilotHandler(_ string, h map[string]any, warn func(string)) map[string]any {
	return copilotHandlerOn(hostOS, h, warn)
}

// copilotHandlerOn is copilotHandler on the system goos: on Windows
// Copilot runs the powershell key where there is one.
func copilotHandlerOn(goos string, h map[string]any, warn func(string)) map[string]any {
	out := make(map[string]any, len(h))
	for k, v := range h {
		switch k {
		case "bash", "powershell", "exec", "timeoutSec", "cwd", "env", "linux", "osx", "windows":
		default:
			out[k] = v
		}
	}
	if t, _ := h["type"].(string); t == "" || t == "command" {
		bash, _ := h["bash"].(string)
		exec, _ := h["exec"].(string)
		ps, _ := h["powershell"].(string)
		osCmd, _ := h[vscodeOSKey[goos]].(string)
		switch {
		case goos == "windows" && strings.TrimSpace(ps) != "" && strings.TrimSpace(osCmd) == "":
			out["command"], out["shell"] = ps, "powershell"
		case strings.TrimSpace(osCmd) != "":
			// VS Code's per-OS override of "command" (linux, osx, windows):
			// the one for this system, as VS Code would run it here.
			out["command"] = osCmd
		case strings.TrimSpace(bash) != "":
			out["command"] = bash
		case h["command"] != nil:
		case strings.TrimSpace(exec) != "":
			out["command"] = exec
		case strings.TrimSpace(ps) != "":
			// Copilot runs the powershell key on Windows only: elsewhere
			// it runs nothing for this handler, nor do we.
			warn(" has only a powershell command, which GitHub Copilot CLI runs on Windows only; skipped")
			return nil
		}
	}
	if v, ok := h["timeoutSec"]; ok {
		// timeout is its alias, read only where timeoutSec is absent
		// (hooks reference, "Command hooks").
		out["timeout"] = v
	}
	for _, k := range []string{"cwd", "env"} {
		if _, ok := h[k]; ok {
			warn("." + k + " is not supported here and is ignored: the hook runs where Claude-dialect hooks run, with hermes-hooks' environment")
		}
	}
	return out
}

// hostOS is the system whose per-OS command a hook file's handler runs
// (a variable for tests); vscodeOSKey names VS Code's key for it.
var (
	hostOS      = runtime.GOOS
	vscodeOSKey = map[string]string{"linux": "linux", "darwin": "osx", "windows": "windows"}
)

// copilotMatcher reads a Copilot matcher as Claude Code's. Copilot anchors
// its regex (^(?:…)$) and, on camelCase events, matches its own tool names
// (bash, view …), as does the codec's subject there
// (copilotCodec.MatchSubject); the Claude dialect matches Claude Code's
// (Bash, Read …). On camelCase events a list of names is read name by name,
// each for every name of its tool (bash for powershell too, Bash for bash:
// Copilot names its shell tool powershell on Windows, and a list written
// with Claude Code's names matched before); any other regex is anchored.
func copilotMatcher(event, m string) string {
	if protocol.IsClaudeName(event) || strings.TrimSpace(m) == "*" {
		return m
	}
	if protocol.IsClaudeNameList(m) {
		var out []string
		for _, p := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
			p = strings.TrimSpace(p)
			c, ok := CopilotClaudeTool(p)
			if !ok {
				c = p
			}
			names := copilotToolsOf(c)
			// Claude Code's tools that stand for this one (Agent,
			// PowerShell, MultiEdit, NotebookEdit: protocol's variants)
			// are compared with the runtime name the subject gives their
			// calls.
			if r, ok := copilotRuntimeTools()[c]; ok && !slices.Contains(names, r) {
				names = append(slices.Clip(names), r)
			}
			if names == nil || !slices.Contains(names, p) {
				out = append(out, p)
			}
			out = append(out, names...)
		}
		return strings.Join(out, "|")
	}
	return "^(?:" + m + ")$"
}

// copilotToolsOf are Copilot's names of the Claude Code tool claude (nil:
// it has none).
func copilotToolsOf(claude string) []string {
	for _, r := range copilotToolNames {
		if r.claude == claude {
			return r.copilot
		}
	}
	return nil
}
