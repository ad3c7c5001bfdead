package agents

import (
	"encoding/json"
	"maps"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Qwen Code (@qwen-code/qwen-code 0.24): Claude Code's hook protocol — the
// same event names, a snake_case payload carrying hook_event_name, JSON
// replies with hookSpecificOutput, in the "hooks" of .qwen/settings.json —
// with Qwen's own tool names (run_shell_command, edit, write_file …) and
// its own events: TodoCreated and TodoCompleted (its todo list's items,
// which a hook may refuse: Claude Code's TaskCreated and TaskCompleted)
// and SessionDelete (a saved session deleted, output unread: not served).
// Qwen reads fewer reply fields than Claude Code and reads some
// differently (continue:false on Stop keeps the agent going), so the
// encoder below writes, per event, what Qwen's code acts on. Facts and
// sources: docs/agent-protocols.md.
func newQwen() *Agent {
	return &Agent{
		Name: "qwen",
		Source: Source{ConfigKey: "qwen_settings", Flag: "qwen-settings", What: "Qwen Code settings",
			FlagHelp:      "also load hooks from this Qwen Code settings.json (repeatable)",
			ProjectMarker: ".qwen", ProjectLevels: 1,
			// A hook's "env" is spread last into its environment, as
			// Gemini CLI's is (HookRunner.executeCommandHook): read alike.
			Document: qwenDocument, Handler: qwenHandler, Env: geminiHookEnv, Matcher: qwenMatcher, UnknownEvent: qwenUnknownEvent,
			Codec: qwenCodec{claudeRenamed{dialect: "qwen", tools: qwenByClaude, vars: []string{"QWEN_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR"},
				read: qwenReadReply}},
			Sequential: sequentialTrue},
		Title:    "Qwen Code",
		EventKey: "hook_event_name",
		Events:   qwenEventMap(),
		HookFile: HookFile{
			Project: ".qwen/settings.json",
			Off:     qwenOff,
			User:    ".qwen/settings.json",
			// $QWEN_HOME/settings.json when QWEN_HOME is set.
			UserEnv: "QWEN_HOME",
			Layout:  Grouped,
			// Qwen Code 0.24's getShellConfiguration on win32: the POSIX
			// form runs only from Git Bash, so install on Windows writes
			// PowerShell's form under "shell": "powershell", which Qwen
			// runs with powershell -Command (getShellConfigForHook).
			POSIXOnWindows:      ComSpecOutsideGitBash,
			CommandShellWindows: PowerShell,
			CommandShellKey:     "shell",
			// Seconds: Qwen 0.24 reads a timeout under 1000 as seconds (one of
			// 1000 or more as milliseconds, with a warning). Its default is a
			// minute, and a hook that times out lets the tool call through.
			Extra: []pyjson.Member{{Key: "timeout", Value: int64(600)}},
			// Claude Code's set, and Qwen's todo events (Claude Code's
			// TaskCreated, TaskCompleted) that a guard may refuse.
			Events: []string{"PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure",
				"UserPromptSubmit", "Stop", "SubagentStart", "SubagentStop",
				"SessionStart", "SessionEnd", "PreCompact", "Notification", "TodoCreated", "TodoCompleted"},
		},
		// Qwen also sets CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR, to the
		// same directory.
		// A minute unless the entry says [Q-PKG HookRunner's default].
		HookTimeout:     60 * time.Second,
		ProjectEnv:      "QWEN_PROJECT_DIR",
		StartFolderOnly: true,
		decode:          decodeQwen,
		shapes:          qwenShapes,
		encode:          encodeQwen,
		// systemMessage, shown on every event it reads at all.
		notice: noticeSystemMessage,
		skip:   qwenSkip,
	}
}

// qwenReply is what Qwen 0.24 reads of a reply to an event, beyond
// systemMessage (shown to the user on every event it reads at all).
type qwenReply uint8

const (
	// qwenObserve: nothing but systemMessage (SessionEnd, Notification,
	// PermissionDenied, PostCompact, InstructionsLoaded).
	qwenObserve qwenReply = iota
	// qwenNoReply: the output is never read (StopFailure; MessageDisplay,
	// whose process runs detached with its output discarded).
	qwenNoReply
	// qwenPreTool: permissionDecision deny / ask / allow and its reason;
	// additionalContext is read into the result but unused by 0.24.4's
	// scheduler; updatedInput is not read at all.
	qwenPreTool
	// qwenPermission: hookSpecificOutput.decision {behavior, message,
	// interrupt, updatedInput (with allow)}.
	qwenPermission
	// qwenPostTool: additionalContext, and continue:false, whose
	// stopReason replaces the tool's output (as an error result). decision
	// "block" is not read.
	qwenPostTool
	// qwenFailure: additionalContext only (PostToolUseFailure).
	qwenFailure
	// qwenContext: additionalContext only (SessionStart, SubagentStart;
	// PreCompact, where it becomes instructions for the compaction).
	qwenContext
	// qwenClaude: Claude Code's reading (UserPromptSubmit,
	// UserPromptExpansion, PostToolBatch): decision "block" + reason and
	// continue:false refuse, additionalContext adds context.
	qwenClaude
	// qwenStop: decision "block" + reason keeps the agent going with the
	// reason as its next prompt — and so does continue:false (Stop,
	// SubagentStop).
	qwenStop
	// qwenTodo: decision "block" + reason keeps the todo list as it was,
	// the reason fed back to the model (TodoCreated, TodoCompleted).
	qwenTodo
)

// qwenEvents are Qwen's events with a canonical twin, and what each reads.
// SessionDelete has none: it is fired after a saved session is deleted,
// its hook runs detached and its output is never read, and neither Claude
// Code nor Hermes has the event.
var qwenEvents = sync.OnceValue(func() map[string]struct {
	canon string
	reply qwenReply
} {
	return map[string]struct {
		canon string
		reply qwenReply
	}{
		"PreToolUse":          {"pre_tool_call", qwenPreTool},
		"PermissionRequest":   {"PermissionRequest", qwenPermission},
		"PostToolUse":         {"post_tool_call", qwenPostTool},
		"PostToolUseFailure":  {"PostToolUseFailure", qwenFailure},
		"PostToolBatch":       {"PostToolBatch", qwenClaude},
		"UserPromptSubmit":    {"pre_llm_call", qwenClaude},
		"UserPromptExpansion": {"UserPromptExpansion", qwenClaude},
		"SessionStart":        {"on_session_start", qwenContext},
		"SubagentStart":       {"subagent_start", qwenContext},
		"PreCompact":          {"PreCompact", qwenContext},
		"Stop":                {"pre_verify", qwenStop},
		"SubagentStop":        {"subagent_stop", qwenStop},
		"TodoCreated":         {"TaskCreated", qwenTodo},
		"TodoCompleted":       {"TaskCompleted", qwenTodo},
		"SessionEnd":          {"on_session_end", qwenObserve},
		"Notification":        {"Notification", qwenObserve},
		"PermissionDenied":    {"PermissionDenied", qwenObserve},
		"PostCompact":         {"PostCompact", qwenObserve},
		"InstructionsLoaded":  {"InstructionsLoaded", qwenObserve},
		"MessageDisplay":      {"MessageDisplay", qwenNoReply},
		"StopFailure":         {"StopFailure", qwenNoReply},
	}
})

func qwenEventMap() map[string]string {
	m := make(map[string]string, len(qwenEvents()))
	for n, e := range qwenEvents() {
		m[n] = e.canon
	}
	return m
}

// qwenUnknownEvent is the warning for a key of a Qwen settings file's
// "hooks" that hermes-hooks does not serve.
func qwenUnknownEvent(name string) string {
	if name == "SessionDelete" {
		return "'SessionDelete' has no hermes-hooks event (its output is never read); Qwen Code runs it itself"
	}
	return "'" + name + "' is not a Qwen Code event hermes-hooks serves; skipped"
}

// qwenDocument takes out the keys of "hooks" that Qwen 0.24 skips there
// without a word (its HOOKS_CONFIG_FIELDS: enabled, disabled,
// notifications), rather than warn of them as unknown events on every
// call. root is not modified.
func qwenDocument(root map[string]any, _ func(path, msg string)) map[string]any {
	hooks, ok := root["hooks"].(map[string]any)
	if !ok {
		return root
	}
	root, hooks = maps.Clone(root), maps.Clone(hooks)
	for _, k := range []string{"enabled", "disabled", "notifications"} {
		delete(hooks, k)
	}
	root["hooks"] = hooks
	return root
}

// qwenTools maps Qwen's tool names (the payload's tool_name, its runtime
// id; and the display names its matchers also accept) to Claude Code's,
// for the tools whose input Qwen names as Claude Code does (command,
// file_path, old_string, pattern, url …). The dispatcher's tool table takes
// it from there; other tools (MCP tools, mcp__server__tool as in Claude
// Code) pass through.
var qwenTools = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"run_shell_command": "Bash",
		"Shell":             "Bash",
		"edit":              "Edit",
		"write_file":        "Write",
		"WriteFile":         "Write",
		"read_file":         "Read",
		"ReadFile":          "Read",
		"grep_search":       "Grep",
		"glob":              "Glob",
		"web_fetch":         "WebFetch",
		"web_search":        "WebSearch",
		"todo_write":        "TodoWrite",
		"TodoList":          "TodoWrite",
		"agent":             "Agent",
		"notebook_edit":     "NotebookEdit",
		"skill":             "Skill",
		"ask_user_question": "AskUserQuestion",
		"exit_plan_mode":    "ExitPlanMode",
		"enter_plan_mode":   "EnterPlanMode",
	}
})

// qwenShapes: read_file names its file absolute_path (as Gemini CLI's did).
var qwenShapes = map[string]toolShape{"read_file": absolutePathShape}

// decodeQwen is the Claude decoding, with Claude Code's tool names, the
// tool's text output as Hermes' result, and a todo item as Claude Code's
// task fields.
func decodeQwen(name string, ev *protocol.Event, p map[string]any) map[string]any {
	f := copyFields(p, 3)
	if t, ok := f["tool_name"].(string); ok {
		if c, ok := qwenTools()[t]; ok {
			f["tool_name"] = c
		}
		if ev.Tool {
			f["tool_input"] = shaped(qwenShapes, t, f["tool_input"])
		}
	}
	// PostToolUse's tool_response is {llmContent, returnDisplay}: what
	// the model reads is llmContent.
	if r, ok := f["tool_response"].(map[string]any); ok {
		if s, ok := r["llmContent"].(string); ok {
			if _, set := f["result"]; !set {
				f["result"] = s
			}
		}
	}
	alias(f, "todo_id", "task_id")
	alias(f, "todo_content", "task_subject")
	return decodeClaude(name, ev, f)
}

// qwenSkip: Qwen fires TodoCreated and TodoCompleted twice per item, to
// validate ("validation") and after the list is written ("postWrite"),
// where a refusal is ignored. Claude Code's TaskCreated and TaskCompleted
// are the first; the second is left alone, so that a hook runs once per
// item, as under Claude Code.
func qwenSkip(agentEvent string, p map[string]any) bool {
	if qwenEvents()[agentEvent].reply != qwenTodo {
		return false
	}
	phase, _ := p["phase"].(string)
	return phase == "postWrite"
}

// qwenHandler reads a command hook's timeout as Qwen 0.24 does
// (readCommandHookTimeout): none, or one not above 0, is its default of
// 60 s (DEFAULT_COMMAND_HOOK_TIMEOUT_SECONDS, not Claude Code's 600 s);
// one of 1000 or more is in milliseconds, its old unit.
func qwenHandler(_ string, h map[string]any, warn func(string)) map[string]any {
	if typ, _ := h["type"].(string); typ != "command" {
		return h
	}
	h = qwenCommandKeys(h, warn)
	t, set := h["timeout"]
	n, ok := t.(json.Number)
	secs, err := n.Float64()
	switch {
	case !set:
	case ok && err == nil && secs <= 0:
		warn(".timeout=" + n.String() + "s is not above 0s; using Qwen Code's default 60s")
	case ok && err == nil && secs >= 1000:
		h = maps.Clone(h)
		h["timeout"] = json.Number(strconv.FormatFloat(secs/1000, 'f', -1, 64))
		return h
	default:
		return h
	}
	h = maps.Clone(h)
	h["timeout"] = json.Number(strconv.Itoa(qwenDefaultTimeout))
	return h
}

// qwenCommandKeys takes out of a command hook the keys Claude Code reads
// there and Qwen 0.24 does not (its HookRunner reads name, command,
// timeout, env, shell and async), so that the Claude reading of the hook
// runs it as Qwen does: "if" and "once" would run a guard on fewer calls
// than Qwen runs it on, "asyncRewake" in the background, "args" as
// another command line. A shell Qwen runs it with is bash unless it names
// powershell (getShellConfigForHook); a falsy one is Qwen's default, bash.
func qwenCommandKeys(h map[string]any, warn func(string)) map[string]any {
	out, cloned := h, false
	edit := func() {
		if !cloned {
			out, cloned = maps.Clone(h), true
		}
	}
	for _, k := range []string{"if", "once", "asyncRewake", "args"} {
		if _, ok := h[k]; ok {
			edit()
			delete(out, k)
			warn("." + k + " is ignored: Qwen Code does not read it on a command hook, and runs the hook as if it were not there")
		}
	}
	if sh, ok := h["shell"]; ok && sh != "powershell" && sh != "bash" {
		edit()
		if pyjson.Truthy(sh) {
			out["shell"] = "bash"
		} else {
			delete(out, "shell")
		}
	}
	return out
}

// qwenDefaultTimeout is Qwen 0.24's timeout of a command hook that sets
// none, in seconds.
const qwenDefaultTimeout = 60

// qwenByClaude maps Claude Code's tool names to Qwen's runtime ids (the
// lower-case keys of qwenTools: the others are display names).
var qwenByClaude = sync.OnceValue(func() map[string]string {
	m := map[string]string{"Task": "agent"}
	for q, c := range qwenTools() {
		if strings.ToLower(q) == q {
			m[c] = q
		}
	}
	return m
})

func encodeQwen(c *Call, o *protocol.Outcome) Reply {
	shape := qwenEvents()[c.AgentEvent].reply
	switch shape {
	case qwenNoReply:
		return Quiet
	case qwenClaude:
		return encodeClaude(c, o)
	}
	// The keys in Claude Code's documented order: continue, stopReason,
	// systemMessage, decision, reason, hookSpecificOutput.
	var stop, decision protocol.Object
	hso := protocol.Object{{Key: "hookEventName", Value: c.AgentEvent}}
	addHSO := func(k string, v any) { hso = append(hso, protocol.KV{Key: k, Value: v}) }
	ctx := joinContext(o)
	refused := o.Decision == protocol.DecisionBlock || o.Stop
	reason := firstNonEmpty(o.Message, o.StopReason, "Blocked by hook")
	switch shape {
	case qwenPreTool:
		// Qwen cannot stop the agent from here, nor apply a rewrite: both
		// refuse the call rather than let it run as it was.
		deny := func(why string) {
			addHSO("permissionDecision", "deny")
			addHSO("permissionDecisionReason", why)
			// Qwen merges the replies of a firing's hooks key by key,
			// hookSpecificOutput's last-wins (mergeWithOrLogic): a hook
			// after ours (project hooks run first, then the user's, the
			// system's, extensions') answering permissionDecision "allow"
			// would replace our deny. continue:false survives that merge
			// and, on PreToolUse, refuses the call with its stopReason
			// (firePreToolUseHook), stopping nothing else.
			stop = protocol.Object{{Key: "continue", Value: false}, {Key: "stopReason", Value: why}}
		}
		switch {
		case refused:
			if o.Decision != protocol.DecisionBlock {
				c.refuses("Qwen Code cannot stop the agent before a tool; this call is refused")
			}
			deny(reason)
		case o.Args != nil:
			c.refuses("Qwen Code cannot run rewritten arguments before a tool; this call is refused")
			deny(qwenRewriteReason(o))
		case o.Decision == protocol.DecisionAsk || o.Decision == protocol.DecisionAllow:
			addHSO("permissionDecision", map[protocol.Decision]string{protocol.DecisionAsk: "ask", protocol.DecisionAllow: "allow"}[o.Decision])
			if o.Message != "" {
				addHSO("permissionDecisionReason", o.Message)
			}
		}
	case qwenPermission:
		switch {
		case refused:
			d := protocol.Object{{Key: "behavior", Value: "deny"}}
			if msg := firstNonEmpty(o.Message, o.StopReason); msg != "" {
				d = append(d, protocol.KV{Key: "message", Value: msg})
			}
			if o.Stop {
				d = append(d, protocol.KV{Key: "interrupt", Value: true})
			}
			addHSO("decision", d)
		case o.Decision == protocol.DecisionAllow:
			d := protocol.Object{{Key: "behavior", Value: "allow"}}
			if o.Args != nil {
				d = append(d, protocol.KV{Key: "updatedInput", Value: o.Args})
			}
			addHSO("decision", d)
		}
		// ask: no decision, so Qwen shows its own dialog.
		ctx = ""
	case qwenPostTool, qwenFailure:
		if o.Decision == protocol.DecisionBlock && o.Message != "" {
			// The result exists: the feedback reaches the model beside it.
			ctx = textutil.JoinNonEmpty("\n\n", o.Message, ctx)
		}
		if shape == qwenPostTool && (o.Result != nil || o.Stop) {
			// continue:false puts its stopReason in place of the tool's
			// output and drops additionalContext: the only way to keep the
			// original output from the model, so a replacement (which
			// Qwen has no field for) travels this way, context with it.
			text := firstNonEmpty(o.StopReason, "Stopped by hook")
			if o.Result != nil {
				text = *o.Result
			}
			stop = protocol.Object{{Key: "continue", Value: false}, {Key: "stopReason", Value: textutil.JoinNonEmpty("\n\n", text, ctx)}}
			ctx = ""
		}
	case qwenStop:
		// continue:false would keep the agent going here (Qwen reads it as
		// a block): a stop is the agent stopping, which it is doing.
		if o.Decision == protocol.DecisionBlock {
			decision = protocol.Object{{Key: "decision", Value: "block"}, {Key: "reason", Value: blockReason(o)}}
		}
		ctx = ""
	case qwenTodo:
		if refused {
			decision = protocol.Object{{Key: "decision", Value: "block"}, {Key: "reason", Value: reason}}
		}
		ctx = ""
	case qwenObserve:
		ctx = ""
	}
	return claudeShaped(stop, o, decision, ctx, hso)
}

// qwenRewriteReason is the refusal of a call a hook rewrote: Qwen 0.24
// does not apply a PreToolUse hook's updatedInput, so the model is told the
// input to call the tool with instead.
func qwenRewriteReason(o *protocol.Outcome) string {
	why := "a hook rewrote this call, which Qwen Code cannot apply: call the tool again with this input instead: " +
		string(pyjson.Encode(o.Args, pyjson.Compact))
	if o.Message != "" {
		return o.Message + " (" + why + ")"
	}
	return why
}
