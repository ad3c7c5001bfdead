package agents

import (
	"maps"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Cline: one executable per event, named after it (PreToolUse …), in a
// workspace's .clinerules/hooks/ or the user's Documents/Cline/Hooks/. Its
// payload is camelCase JSON naming the event (hookName) with the event's
// data under its own key (preToolUse: {toolName, parameters}); its reply is
// JSON on stdout, whatever the exit code: {cancel, contextModification,
// errorMessage}. cancel:true stops the whole task (Cline cannot refuse one
// call and go on). Facts (cline 2.18.0, which bundles the VS Code
// extension's hook code; the SDK-based cline 3.0.65): docs/agent-protocols.md.
func newCline() *Agent {
	return &Agent{
		Name: "cline",
		Source: Source{ConfigKey: "cline_hooks", Flag: "cline-hooks", What: "Cline hooks",
			FlagHelp:      "also load the hooks of this Cline hooks folder (or one hook file of it); they speak Cline's protocol (repeatable)",
			ProjectMarker: ".clinerules", ProjectLevels: 1, Dir: true,
			Handler: clineHandler, Codec: clineCodec{},
			DirWindows: clineWindows,
			// A file is a hook under its event's own name only.
			Event: func(name string) (*protocol.Event, bool) {
				row, ok := clineClassic[name]
				if !ok {
					return nil, false
				}
				return protocol.Lookup(row.canon)
			}},
		Title:    "Cline",
		EventKey: "hookName",
		Events:   clineEvents(),
		HookFile: HookFile{
			Project: ".clinerules/hooks",
			User:    "Documents/Cline/Hooks",
			Layout:  Scripts,
			Events:  []string{"TaskStart", "TaskResume", "TaskCancel", "TaskComplete", "PreToolUse", "PostToolUse", "UserPromptSubmit", "PreCompact"},
		},
		HookTimeout: 30 * second, // per hook file, not configurable (Cio=3e4) [CL-PKG executeHook]
		decode:      decodeCline,
		encode:      encodeCline,
		roots:       clineRoots, notice: noticeNone, // errorMessage comes with a cancel of the task only; contextModification is the model's
	}
}

// clineWindows is how Cline finds and runs its hook files on Windows
// (cline/cline#9552, merged as a502bd8: HookFactory.findWindowsHook and
// resolveExistingHookPath look for <Event>.ps1 only, "extensionless hooks
// are intentionally ignored on Windows", so where both PreToolUse and
// PreToolUse.ps1 exist only the .ps1 runs; a .cmd, .bat or .exe is never
// found; getHookLaunchConfig starts it as below, no shell, whenever the
// file exists, with no execute bit or toggle). Cline picks the PowerShell
// by probing (pwsh 7's install folders first, then Windows PowerShell);
// hermes-hooks runs powershell.exe as found on the hook's PATH.
var clineWindows = &DirRule{
	Ext:      ".ps1",
	Launcher: []string{"powershell.exe", "-NoProfile", "-NonInteractive", "-ExecutionPolicy", "Bypass", "-File"},
	Runs:     "Cline on Windows runs only <Event>.ps1, through PowerShell",
}

// clineDialect names the hooks of a Cline hooks folder (clineCodec).
const clineDialect protocol.Dialect = "cline"

// clineKind is what a Cline event announces: the key of its behaviour.
type clineKind int

const (
	clinePreTool clineKind = iota + 1
	clinePostTool
	clinePrompt
	clineStart
	clineResume
	clineCancel
	clineComplete
	clineCompact
)

// clineClassic are the events of Cline's hook files, as the VS Code
// extension (and cline ≤ 2.x) names them in the payload too: the
// canonical event each stands for, and its kind.
var clineClassic = map[string]struct {
	canon string
	kind  clineKind
}{
	"TaskStart":        {"on_session_start", clineStart},
	"TaskResume":       {"on_session_start", clineResume},
	"TaskCancel":       {"on_session_end", clineCancel},
	"TaskComplete":     {"on_session_end", clineComplete},
	"PreToolUse":       {"pre_tool_call", clinePreTool},
	"PostToolUse":      {"post_tool_call", clinePostTool},
	"UserPromptSubmit": {"pre_llm_call", clinePrompt},
	"PreCompact":       {"PreCompact", clineCompact},
}

// clineKindOf is the kind of an event as a payload or a file names it.
func clineKindOf(event string) clineKind { return clineClassic[clineFile(event)].kind }

// clineSDKNames are the payload's names for the same files in the SDK
// behind cline 3.x (@cline/core), which runs the PreToolUse file with
// hookName "tool_call" …; it runs no PreCompact file.
var clineSDKNames = map[string]string{
	"agent_start": "TaskStart", "agent_resume": "TaskResume", "agent_abort": "TaskCancel",
	"agent_end": "TaskComplete", "tool_call": "PreToolUse", "tool_result": "PostToolUse",
	"prompt_submit": "UserPromptSubmit",
}

func clineEvents() map[string]string {
	m := make(map[string]string, 16)
	for n, row := range clineClassic {
		m[n] = row.canon
	}
	for sdk, n := range clineSDKNames {
		m[sdk] = clineClassic[n].canon
	}
	return m
}

// clineFile is the hook file's name (the classic event) of an event as a
// payload names it.
func clineFile(event string) string {
	if n, ok := clineSDKNames[event]; ok {
		return n
	}
	return event
}

// clineRoots are the payload's workspaceRoots.
func clineRoots(p map[string]any) []string { return clineStrings(p["workspaceRoots"]) }

// clineStrings are the non-empty strings of a JSON list.
func clineStrings(v any) []string {
	list, _ := v.([]any)
	var out []string
	for _, r := range list {
		if s, ok := r.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// clineTools are Cline's tool names with a canonical twin, and how its
// parameters become the twin's arguments.
var clineTools = map[string]struct {
	tool string
	args map[string]string // Cline parameter → argument
}{
	"execute_command": {"terminal", map[string]string{"command": "command"}},
	"read_file":       {"read_file", map[string]string{"path": "path"}},
	"write_to_file":   {"write_file", map[string]string{"path": "path", "content": "content"}},
	"replace_in_file": {"patch", map[string]string{"path": "path", "diff": "diff"}},
	"web_fetch":       {"web_extract", map[string]string{"url": "url"}},
	"web_search":      {"web_search", map[string]string{"query": "query"}},
}

func decodeCline(name string, _ *protocol.Event, p map[string]any) map[string]any {
	f := copyFields(p, 6)
	alias(f, "taskId", "session_id")
	if roots := clineRoots(p); len(roots) > 0 {
		f["cwd"] = roots[0]
	}
	if m, ok := p["model"].(map[string]any); ok {
		if s, ok := m["slug"].(string); ok {
			f["model"] = s
		}
	}
	switch clineKindOf(name) {
	case clinePreTool, clinePostTool:
		data, _ := p["preToolUse"].(map[string]any)
		if d, ok := p["postToolUse"].(map[string]any); ok {
			data = d
			f["result"] = d["result"]
		}
		tool, _ := data["toolName"].(string)
		params, _ := data["parameters"].(map[string]any)
		if call, ok := firstPresent(p, "tool_call", "tool_result").(map[string]any); ok { // the SDK's own call (cline 3)
			tool, _ = call["name"].(string)
			f["tool_name"], f["args"] = clineSDKTool(tool, call["input"])
			break
		}
		f["tool_name"], f["args"] = clineTool(tool, params)
	case clinePrompt:
		if d, ok := p["userPromptSubmit"].(map[string]any); ok {
			f["prompt"], f["user_message"] = d["prompt"], d["prompt"]
		}
	case clineStart:
		f["source"] = "startup"
	case clineResume:
		f["source"] = "resume"
	case clineCancel:
		f["reason"], f["interrupted"], f["completed"] = "cancelled", true, false
	case clineComplete:
		f["reason"], f["interrupted"], f["completed"] = "completed", false, true
	case clineCompact:
		f["trigger"] = "auto"
	}
	return f
}

// clineTool is the canonical tool and arguments of a Cline tool call:
// its twin's name and arguments, an MCP call as mcp__server__tool with its
// arguments (JSON text in Cline), and any other tool as Cline names it.
func clineTool(tool string, params map[string]any) (string, map[string]any) {
	if t, ok := clineTools[tool]; ok {
		args := map[string]any{}
		for from, to := range t.args {
			if v, ok := params[from]; ok {
				args[to] = v
			}
		}
		return t.tool, args
	}
	switch tool {
	case "use_mcp_tool":
		server, _ := params["server_name"].(string)
		name, _ := params["tool_name"].(string)
		return "mcp__" + server + "__" + name, jsonObject(params["arguments"]).(map[string]any)
	case "apply_patch":
		return "patch", map[string]any{"mode": "patch", "patch": params["input"]}
	}
	args := make(map[string]any, len(params))
	for k, v := range params {
		args[k] = v
	}
	return tool, args
}

// encodeCline writes {cancel, errorMessage} or {contextModification}; the
// SDK also reads overrideInput. A refusal (and an ask) cancels the task, the
// only refusal Cline has; so does a rewrite the classic Cline cannot apply,
// giving the new arguments. Feedback on a result is context; TaskCancel and
// TaskComplete replies are not read.
func encodeCline(c *Call, o *protocol.Outcome) Reply {
	sdk := clineFile(c.AgentEvent) != c.AgentEvent
	var obj protocol.Object
	cancel := func(reason string) {
		obj = protocol.Object{{Key: "cancel", Value: true}, {Key: "errorMessage", Value: reason}}
	}
	refusal := firstNonEmpty(o.Message, o.StopReason, protocol.ClaudeDefaultBlockReason)
	ctx := joinContext(o)
	switch clineKindOf(c.AgentEvent) {
	case clinePreTool:
		switch {
		case o.Decision == protocol.DecisionAsk:
			cancel(askRefused(c, o, "Cline cannot ask from a hook; the task is stopped"))
		case o.Decision == protocol.DecisionBlock || o.Stop:
			cancel(refusal)
		case o.Args != nil && sdk:
			obj = protocol.Object{{Key: "overrideInput", Value: clineSDKInput(c, o.Args)}}
		case o.Args != nil:
			c.refuses("Cline cannot run rewritten arguments; the task is stopped")
			cancel("hermes-hooks: a hook rewrote this call, and Cline cannot run rewritten arguments; the task is stopped. Rewritten arguments: " +
				string(pyjson.Encode(o.Args, pyjson.Compact)))
		}
	case clinePostTool:
		if o.Stop {
			cancel(firstNonEmpty(o.StopReason, protocol.ClaudeDefaultBlockReason))
		} else if o.Decision == protocol.DecisionBlock {
			ctx = textutil.JoinNonEmpty("\n\n", blockReason(o), ctx)
		}
	case clinePrompt, clineCompact:
		if o.Decision == protocol.DecisionBlock || o.Stop {
			cancel(refusal)
		}
	case clineStart, clineResume:
		if o.Stop {
			cancel(firstNonEmpty(o.StopReason, protocol.ClaudeDefaultBlockReason))
		}
	default: // TaskCancel, TaskComplete: Cline reads nothing
		return Quiet
	}
	if ctx != "" && (len(obj) == 0 || obj[0].Key == "overrideInput") {
		obj = append(obj, protocol.KV{Key: "contextModification", Value: ctx})
	}
	return jsonReply(obj)
}

// clineHandler: TaskStart and TaskResume are one canonical event
// (on_session_start), TaskCancel and TaskComplete another: such a hook gets
// a matcher naming its own event, which clineCodec.MatchSubject tells apart.
func clineHandler(event string, h map[string]any, _ func(string)) map[string]any {
	switch clineKindOf(event) {
	case clineStart, clineResume, clineCancel, clineComplete:
		h = maps.Clone(h)
		h["matcher"] = event
	}
	return h
}
