package agents

import (
	"sync"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Factory Droid (the droid CLI, @factory/cli 0.225): Claude Code's hook
// protocol — Claude's nine original event names, a snake_case payload
// naming the event in hook_event_name, JSON replies with
// hookSpecificOutput, in the "hooks" of .factory/settings.json — with
// Droid's own tool names (Execute, Create, FetchUrl …; Edit's input is
// old_str/new_str) and a reading of replies narrower than Claude Code's:
// decision "block" is read on Stop only, a prompt is refused by
// continue:false, PreCompact only by exit 2, and SubagentStop, SessionEnd
// and Notification replies are not read at all. Facts and sources:
// docs/agent-protocols.md.
func newFactory() *Agent {
	return &Agent{
		Name: "factory",
		Source: Source{ConfigKey: "factory_settings", Flag: "factory-settings", What: "Factory Droid settings",
			FlagHelp:      "also load hooks from this Factory Droid settings.json (repeatable)",
			ProjectMarker: ".factory", ProjectLevels: 1,
			// Its hooks see Droid's tool names and match them as Droid
			// does: exact names, else an unanchored regex, as Claude's rule.
			Codec: claudeRenamed{dialect: "factory", tools: factoryByClaude, input: factoryInput,
				vars: []string{"FACTORY_PROJECT_DIR", "DROID_PROJECT_DIR", "CLAUDE_PROJECT_DIR"}},
			UnknownEvent: func(name string) string { return "'" + name + "' is not a Factory Droid event; skipped" }},
		Title:    "Factory Droid",
		EventKey: "hook_event_name",
		Events:   factoryEvents,
		HookFile: HookFile{
			// Droid merges the user's, the project's and
			// .factory/settings.local.json's hooks. Its newer docs name a
			// hooks.json beside settings.json, which then wins; 0.225 still
			// reads the "hooks" of settings.json.
			Project: ".factory/settings.json",
			User:    ".factory/settings.json",
			Layout:  Grouped,
			// Seconds; Droid's default is 60, and a hook that times out
			// lets the tool call through.
			Extra:  []pyjson.Member{{Key: "timeout", Value: int64(600)}},
			Events: []string{"PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart", "PreCompact"},
		},
		// Droid also sets DROID_PROJECT_DIR and CLAUDE_PROJECT_DIR, to the
		// same directory, and hands SessionStart hooks CLAUDE_ENV_FILE.
		// 60 s unless the entry says [F-DOC hooks reference, "timeout"].
		HookTimeout: 60 * time.Second,
		ProjectEnv:  "FACTORY_PROJECT_DIR",
		EnvFileEnv:  "CLAUDE_ENV_FILE",
		decode:      decodeFactory,
		shapes:      factoryShapes,
		encode:      encodeFactory,
		// systemMessage, as Claude Code.
		notice: noticeSystemMessage,
	}
}

// factoryEvents are Droid's nine events (its hook event enum) and their
// catalog twins.
var factoryEvents = map[string]string{
	"PreToolUse":       "pre_tool_call",
	"PostToolUse":      "post_tool_call",
	"UserPromptSubmit": "pre_llm_call",
	"Stop":             "pre_verify",
	"SubagentStop":     "subagent_stop",
	"SessionStart":     "on_session_start",
	"SessionEnd":       "on_session_end",
	"PreCompact":       "PreCompact",
	"Notification":     "Notification",
}

// factoryRead is what Droid 0.225 reads of a reply to one of its events,
// beyond systemMessage.
type factoryRead uint8

const (
	// factoryUnread: the reply is waited for and not read (SubagentStop,
	// SessionEnd, Notification).
	factoryUnread factoryRead = iota
	// factoryPreTool: continue:false, permissionDecision + reason,
	// updatedInput.
	factoryPreTool
	// factoryPostTool: continue:false, additionalContext.
	factoryPostTool
	// factoryPrompt: continue:false refuses, additionalContext.
	factoryPrompt
	// factoryStop: continue:false stops, decision "block" keeps going.
	factoryStop
	// factoryContext: additionalContext (SessionStart).
	factoryContext
	// factoryExit2: no JSON; exit 2 refuses (PreCompact).
	factoryExit2
)

var factoryReads = map[string]factoryRead{
	"PreToolUse": factoryPreTool, "PostToolUse": factoryPostTool, "UserPromptSubmit": factoryPrompt,
	"Stop": factoryStop, "SessionStart": factoryContext, "PreCompact": factoryExit2,
	"SubagentStop": factoryUnread, "SessionEnd": factoryUnread, "Notification": factoryUnread,
}

// factoryTools maps Droid's tool names to Claude Code's where the two
// differ; Read, Grep, Glob, Edit, MultiEdit (Hermes' patch, as Claude
// Code's), WebSearch, TodoWrite and Task are spelt alike, and other tools
// (LS, MCP tools) pass through.
var factoryTools = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"Execute":  "Bash",
		"Create":   "Write",
		"FetchUrl": "WebFetch",
		"AskUser":  "AskUserQuestion",
	}
})

// factoryPatchTool is Droid's ApplyPatch (a patch envelope over several
// files, offered to OpenAI models beside Edit) as the canonical tool: Hermes'
// patch, Codex's apply_patch likewise, so a `patch|write_file` guard sees
// it. Its input is shown as that tool's too (factoryShapes).
const factoryPatchTool = "patch"

// factoryShapes: ApplyPatch's envelope comes as its input itself or as
// {input} (its schema declares no parameters of its own).
var factoryShapes = map[string]toolShape{"ApplyPatch": patchShape}

// factoryEditKeys are Droid's names of the Edit tool's input and Claude
// Code's.
var factoryEditKeys = [][2]string{{"old_str", "old_string"}, {"new_str", "new_string"}, {"change_all", "replace_all"}}

// decodeFactory is the Claude decoding with Claude Code's tool names and
// Edit input, and a subagent's result as its summary.
func decodeFactory(name string, ev *protocol.Event, p map[string]any) map[string]any {
	f := copyFields(p, 2)
	tool, _ := f["tool_name"].(string)
	if c, ok := factoryTools()[tool]; ok {
		f["tool_name"] = c
	} else if tool == "ApplyPatch" {
		f["tool_name"] = factoryPatchTool
		f["tool_input"] = shaped(factoryShapes, tool, f["tool_input"])
	}
	if in, ok := f["tool_input"].(map[string]any); ok && tool == "Edit" {
		in = copyFields(in, 3)
		showTwins(in, factoryEditKeys)
		f["tool_input"] = in
	}
	if ev.Stops && ev.HermesReply != protocol.ReplyVerify {
		alias(f, "task_result", "child_summary")
	}
	return decodeClaude(name, ev, f)
}

// factoryArgs is a rewritten input as Droid's tool reads it. Droid merges
// updatedInput into the call's input key by key, so the arguments go whole.
func factoryArgs(c *Call, args map[string]any) map[string]any {
	tool, _ := c.Fields["tool_name"].(string)
	return factoryInput(tool, args)
}

// factoryInput is a Claude Code tool input in Droid's keys (Edit's); in is
// not modified.
func factoryInput(tool string, in map[string]any) map[string]any {
	if tool != "Edit" {
		return in
	}
	out := copyFields(in, 0)
	for _, k := range factoryEditKeys {
		if v, ok := out[k[1]]; ok {
			delete(out, k[1])
			out[k[0]] = v
		}
	}
	return out
}

// factoryByClaude maps Claude Code's tool names to Droid's.
var factoryByClaude = sync.OnceValue(func() map[string]string {
	m := make(map[string]string, len(factoryTools()))
	for f, c := range factoryTools() {
		m[c] = f
	}
	return m
})

// encodeFactory writes what Droid 0.225 acts on, per event.
func encodeFactory(c *Call, o *protocol.Outcome) Reply {
	var top, decision protocol.Object
	hso := protocol.Object{{Key: "hookEventName", Value: c.AgentEvent}}
	addHSO := func(k string, v any) { hso = append(hso, protocol.KV{Key: k, Value: v}) }
	stop := func(reason string) {
		top = append(top, protocol.KV{Key: "continue", Value: false}, protocol.KV{Key: "stopReason", Value: reason})
	}
	ctx := joinContext(o)
	switch factoryReads[c.AgentEvent] {
	case factoryPreTool:
		// continue:false stops the agent (Droid checks it first); the
		// first permissionDecision decides; updatedInput applies with
		// allow or alone. additionalContext is not read here.
		if o.Stop {
			stop(firstNonEmpty(o.StopReason, "Stopped by hook"))
		}
		switch o.Decision {
		case protocol.DecisionBlock:
			addHSO("permissionDecision", "deny")
			addHSO("permissionDecisionReason", blockReason(o))
		case protocol.DecisionAsk, protocol.DecisionAllow:
			addHSO("permissionDecision", string(o.Decision))
			if o.Message != "" {
				addHSO("permissionDecisionReason", o.Message)
			}
		}
		if o.Args != nil && o.Decision != protocol.DecisionBlock {
			addHSO("updatedInput", factoryArgs(c, o.Args))
		}
		ctx = ""
	case factoryPostTool:
		// decision "block" is not read: the feedback reaches the model as
		// additionalContext, beside the result, which no field replaces.
		if o.Stop {
			stop(firstNonEmpty(o.StopReason, "Stopped by hook"))
		}
		if o.Result != nil {
			ctx = textutil.JoinNonEmpty("\n\n", "A hook rewrote this tool's output; use this instead: "+*o.Result, ctx)
		}
		if o.Decision == protocol.DecisionBlock {
			ctx = textutil.JoinNonEmpty("\n\n", blockReason(o), ctx)
		}
	case factoryPrompt:
		// continue:false (or exit 2) refuses the prompt, its stopReason the
		// error shown; decision "block" is not read.
		if o.Stop || o.Decision == protocol.DecisionBlock {
			stop(firstNonEmpty(o.Message, o.StopReason, "Blocked by hook"))
		}
	case factoryStop:
		if o.Stop {
			stop(firstNonEmpty(o.StopReason, "Stopped by hook"))
		}
		if o.Decision == protocol.DecisionBlock {
			decision = protocol.Object{{Key: "decision", Value: "block"}, {Key: "reason", Value: blockReason(o)}}
		}
		ctx = ""
	case factoryContext:
	case factoryExit2:
		// Droid reads no JSON here: exit 2 (or 3) keeps the history as it is.
		if o.Decision == protocol.DecisionBlock || o.Stop {
			return Reply{Exit: 2, Stderr: []byte(firstNonEmpty(o.Message, o.StopReason, "Blocked by hook") + "\n")}
		}
		return Quiet
	case factoryUnread:
		return Quiet
	}
	return claudeShaped(top, o, decision, ctx, hso)
}
