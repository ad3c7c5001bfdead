package agents

import (
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Codex CLI (0.169, 0.171): Claude Code's hook protocol — the same event names, a
// snake_case payload carrying hook_event_name, and JSON replies with
// hookSpecificOutput — but Codex validates every reply against a closed
// schema per event and treats a reply that uses something it does not
// support (permissionDecision "ask", "allow" without updatedInput,
// continue:false on PreToolUse, a key the event's schema lacks …) as a
// failed hook whose output is ignored. A failed hook fails open, so the
// encoder below writes only what Codex accepts for each event and turns
// the rest into the nearest thing it does accept, never into nothing when
// the outcome refuses. Facts and sources: docs/agent-protocols.md.
func newCodex() *Agent {
	return &Agent{
		Name: "codex",
		Source: Source{ConfigKey: "codex_hooks", Flag: "codex-hooks", What: "Codex hooks",
			FlagHelp:      "also load hooks from this Codex hooks.json (repeatable)",
			ProjectMarker: ".codex", ProjectLevels: 1, Codec: codexCodec{},
			Handler: func(_ string, h map[string]any, _ func(string)) map[string]any {
				return codexHandlerOn(hostOS, h)
			}},
		Title:    "Codex CLI",
		EventKey: "hook_event_name",
		Events:   codexEventMap(),
		HookFile: HookFile{
			// Codex reads Claude Code's grouped shape; a project's .codex/
			// layer only once the project is trusted. New or changed entries
			// run only after the user trusts them in Codex (/hooks).
			Project: ".codex/hooks.json",
			User:    ".codex/hooks.json",
			// $CODEX_HOME/hooks.json when CODEX_HOME is set.
			UserEnv: "CODEX_HOME",
			Layout:  Grouped,
			// Codex's default hook timeout is not documented: say it.
			Extra: []pyjson.Member{{Key: "timeout", Value: int64(600)}},
			// Codex allows a SessionEnd hook 3 s at most and reports a larger
			// value as an error item on every run.
			EventExtra: map[string][]pyjson.Member{"SessionEnd": {{Key: "timeout", Value: int64(3)}}},
			// On Windows Codex runs commandWindows (or command_windows)
			// with %COMSPEC% /C instead of command.
			WindowsKey: "commandWindows", WindowsShell: Cmd, WindowsAliases: []string{"command_windows"},
			Notice: "Codex runs new or changed hooks only once you trust them: open /hooks in Codex and trust the hermes-hooks entries.",
			Events: []string{"PreToolUse", "PermissionRequest", "PostToolUse", "UserPromptSubmit",
				"SessionStart", "SessionEnd", "SubagentStart", "SubagentStop", "Stop", "PreCompact", "PostCompact",
				"PreModelRequest", "PostModelRequest"},
		},
		decode: decodeCodex,
		encode: encodeCodex,
		// systemMessage, a key of every output schema but SessionEnd's (none).
		notice: noticeSystemMessage,
	}
}

// codexReply is which reply shape Codex reads for an event: its output
// schema, beyond the universal continue / stopReason / systemMessage.
type codexReply uint8

const (
	// codexNoReply: the output is not read (SessionEnd).
	codexNoReply codexReply = iota
	// codexUniversal: only continue, stopReason, systemMessage
	// (PreCompact, PostCompact).
	codexUniversal
	// codexPreTool: hookSpecificOutput.permissionDecision "deny" (with a
	// non-empty reason) or "allow" with updatedInput, additionalContext;
	// continue:false and stopReason are refused.
	codexPreTool
	// codexPermission: hookSpecificOutput.decision.behavior allow / deny
	// (+ message); updatedInput, interrupt, continue:false are refused.
	codexPermission
	// codexPostTool: decision "block" + reason (replaces the tool result
	// with the feedback), hookSpecificOutput.additionalContext.
	codexPostTool
	// codexPrompt: decision "block" + reason, additionalContext.
	codexPrompt
	// codexContext: hookSpecificOutput.additionalContext only
	// (SessionStart, SubagentStart).
	codexContext
	// codexStop: decision "block" + reason, the prompt of the next turn
	// (Stop, SubagentStop); no hookSpecificOutput.
	codexStop
)

// codexEvents are Codex's events with a canonical twin, and the reply
// shape each reads. Interrupt (Esc on a running turn) has no twin.
var codexEvents = sync.OnceValue(func() map[string]struct {
	canon string
	reply codexReply
} {
	return map[string]struct {
		canon string
		reply codexReply
	}{
		"PreToolUse":        {"pre_tool_call", codexPreTool},
		"PermissionRequest": {"PermissionRequest", codexPermission},
		"PostToolUse":       {"post_tool_call", codexPostTool},
		"UserPromptSubmit":  {"pre_llm_call", codexPrompt},
		"SessionStart":      {"on_session_start", codexContext},
		"SubagentStart":     {"subagent_start", codexContext},
		"Stop":              {"pre_verify", codexStop},
		"SubagentStop":      {"subagent_stop", codexStop},
		"PreCompact":        {"PreCompact", codexUniversal},
		"PostCompact":       {"PostCompact", codexUniversal},
		"SessionEnd":        {"on_session_end", codexNoReply},
		// Codex 0.171: around each request to the model (payload: kind,
		// request_id, attempt_number, model; after it status, error,
		// token_usage). Hermes' pre/post_api_request are the same points;
		// both observe only, and the reply shape Codex reads for them is
		// not published, so nothing is written back.
		"PreModelRequest":  {"pre_api_request", codexNoReply},
		"PostModelRequest": {"post_api_request", codexNoReply},
	}
})

func codexEventMap() map[string]string {
	m := make(map[string]string, len(codexEvents()))
	for n, e := range codexEvents() {
		m[n] = e.canon
	}
	return m
}

// codexPatchTool is the canonical tool apply_patch becomes. Codex names its
// file-edit tool apply_patch and sends the whole patch envelope ("*** Begin
// Patch …") as tool_input.command; Codex itself lets Edit and Write
// matchers select it. Hermes' patch tool takes the same envelope in its
// "patch" mode, so the call is presented as that tool — Claude-dialect
// hooks then see it as Edit — and a guard on file edits is not skipped
// because of a name only Codex uses.
const codexPatchTool = "patch"

// decodeCodex is the Claude decoding (Bash and MCP names go through the
// dispatcher's tool table as Claude Code's do), plus apply_patch.
func decodeCodex(name string, ev *protocol.Event, p map[string]any) map[string]any {
	f := decodeClaude(name, ev, p)
	// Hermes' names for the model request's identity and usage.
	alias(f, "request_id", "api_request_id")
	alias(f, "token_usage", "usage")
	if s, _ := f["tool_name"].(string); s == "apply_patch" {
		f["tool_name"] = codexPatchTool
		in, _ := f["tool_input"].(map[string]any)
		f["tool_input"] = map[string]any{"mode": "patch", "patch": in["command"]}
	}
	return f
}

// codexToolInput is rewritten arguments as Codex's tool takes them: an
// apply_patch rewrite goes back to {"command": <patch>}.
func codexToolInput(c *Call, args map[string]any) map[string]any {
	if s, _ := c.Fields["tool_name"].(string); s == codexPatchTool {
		if patch, ok := args["patch"].(string); ok {
			return map[string]any{"command": patch}
		}
	}
	return args
}

func encodeCodex(c *Call, o *protocol.Outcome) Reply {
	shape := codexEvents()[c.AgentEvent].reply
	if shape == codexNoReply {
		return Quiet
	}
	var top protocol.Object
	// continue:false makes a PreToolUse or PermissionRequest reply invalid
	// (the tool would then run): there a stop refuses the call instead.
	if o.Stop && shape != codexPreTool && shape != codexPermission {
		top = append(top, protocol.KV{Key: "continue", Value: false})
		if o.StopReason != "" {
			top = append(top, protocol.KV{Key: "stopReason", Value: o.StopReason})
		}
	}
	if o.SystemMessage != "" {
		top = append(top, protocol.KV{Key: "systemMessage", Value: o.SystemMessage})
	}
	hso := protocol.Object{{Key: "hookEventName", Value: c.AgentEvent}}
	ctx := joinContext(o)
	switch shape {
	case codexPreTool:
		switch {
		case o.Decision == protocol.DecisionBlock || o.Decision == protocol.DecisionAsk || o.Stop:
			// Codex cannot ask from PreToolUse ("ask" is refused): a hook
			// that wants a human's approval gets a refusal, the safe side,
			// saying so.
			reason := codexReason(o.Message, o.StopReason)
			if o.Decision == protocol.DecisionAsk {
				reason = askRefused(c, o, "Codex cannot ask from a PreToolUse hook; this call is refused")
			} else if o.Decision != protocol.DecisionBlock {
				c.refuses("Codex cannot stop the agent from a PreToolUse hook; this call is refused")
			}
			hso = append(hso, protocol.KV{Key: "permissionDecision", Value: "deny"},
				protocol.KV{Key: "permissionDecisionReason", Value: reason})
		case o.Args != nil:
			// updatedInput is read only with "allow" — and "allow" alone
			// is refused, so a plain allow says nothing.
			hso = append(hso, protocol.KV{Key: "permissionDecision", Value: "allow"},
				protocol.KV{Key: "updatedInput", Value: codexToolInput(c, o.Args)})
		}
	case codexPermission:
		switch {
		case o.Decision == protocol.DecisionBlock || o.Stop:
			hso = append(hso, protocol.KV{Key: "decision", Value: protocol.Object{
				{Key: "behavior", Value: "deny"}, {Key: "message", Value: codexReason(o.Message, o.StopReason)}}})
		case o.Decision == protocol.DecisionAllow:
			hso = append(hso, protocol.KV{Key: "decision", Value: protocol.Object{{Key: "behavior", Value: "allow"}}})
		}
		// ask: no decision, so Codex asks the user itself.
		ctx = ""
	case codexPostTool, codexPrompt, codexStop:
		if o.Decision == protocol.DecisionBlock {
			top = append(top, protocol.KV{Key: "decision", Value: "block"}, protocol.KV{Key: "reason", Value: codexReason(o.Message)})
		}
		if shape == codexStop {
			ctx = "" // Stop's schema has no hookSpecificOutput
		}
	case codexUniversal:
		// PreCompact has no decision: a block stops the turn, the only
		// refusal its schema carries.
		if o.Decision == protocol.DecisionBlock && !o.Stop && c.Event.Can(protocol.CapBlock) {
			top = append(top, protocol.KV{Key: "continue", Value: false}, protocol.KV{Key: "stopReason", Value: codexReason(o.Message)})
		}
		ctx = ""
	}
	if ctx != "" {
		hso = append(hso, protocol.KV{Key: "additionalContext", Value: ctx})
	}
	if len(hso) > 1 {
		top = append(top, protocol.KV{Key: "hookSpecificOutput", Value: hso})
	}
	return jsonReply(top)
}

// codexReason is the first of reasons that is not blank, trimmed, else
// "Blocked by hook": Codex takes a deny or block whose reason is empty
// once trimmed for an invalid reply (a failed hook, and the call goes
// on; docs/agent-protocols.md, Codex "Reply").
func codexReason(reasons ...string) string {
	for _, r := range reasons {
		if t := strings.TrimSpace(r); t != "" {
			return t
		}
	}
	return "Blocked by hook"
}
