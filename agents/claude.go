package agents

import (
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Claude Code: its stdin payload is the Claude shape the dispatcher already
// takes (hook_event_name, tool_name, tool_input, session_id, cwd, prompt …),
// and its events are the catalog's Claude names.
func newClaude() *Agent {
	return &Agent{
		Name: "claude",
		Source: Source{ConfigKey: "claude_settings", Flag: "claude-settings", What: "Claude settings",
			FlagHelp:      "also load hooks from this Claude Code settings file (repeatable)",
			ProjectMarker: ".claude", ProjectLevels: 1, Switches: true, OnceIgnored: true,
			StopGrace: 1500 * time.Millisecond,
			// Claude Code's settings as hermes-hooks reads them take any
			// name of an event (a Hermes name too).
			Event: protocol.Lookup,
			UnknownEvent: func(name string) string {
				msg := "unknown hook event '" + name + "'; skipped"
				if s := protocol.SuggestEvent(name); s != "" {
					msg += " (did you mean '" + s + "'?)"
				}
				return msg
			}},
		Title:    "Claude Code",
		EventKey: "hook_event_name",
		Events:   claudeEvents(),
		HookFile: HookFile{
			Project: ".claude/settings.json",
			Off:     offByDisableAll,
			User:    ".claude/settings.json",
			// Claude Code's settings of one checkout, not committed.
			Local:  ".claude/settings.local.json",
			Layout: Grouped,
			// Claude Code on a Windows without Git Bash (reported in
			// ustoppble/overclick#63 for 2.1.241, and in its docs).
			POSIXOnWindows: GitBashElsePowerShell,
			// Claude Code's SessionEnd hooks share a 1.5 s budget that the
			// largest timeout one configures raises, up to 60 s (the
			// catalog's SharedBudget): with no timeout of its own, this
			// entry had 1.5 s for every SessionEnd hook hermes-hooks runs.
			// Saying 60 lets Claude Code wait up to that; hermes-hooks then
			// holds its hooks to the budget they configure themselves.
			EventExtra: map[string][]pyjson.Member{"SessionEnd": {{Key: "timeout", Value: int64(60)}}},
			// The events hermes-hooks has something to say on; the others
			// (FileChanged, WorktreeCreate …) would start a process per
			// event for nothing in the common config.
			Events: []string{"PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure",
				"UserPromptSubmit", "Stop", "SubagentStart", "SubagentStop",
				"SessionStart", "SessionEnd", "PreCompact", "Notification", "PreSkillShellCommand"},
		},
		// A command hook's default timeout is 600 s (since 2.1.3), 30 s on
		// UserPromptSubmit; SessionEnd hooks share a 1.5 s budget that
		// only a configured timeout raises [CC-DOC "Hooks reference",
		// timeouts; the spec's defaults table] (an entry of install's
		// configures 60 s: HookFile.EventExtra).
		HookTimeout:     600 * time.Second,
		EventTimeouts:   map[string]time.Duration{"UserPromptSubmit": 30 * time.Second, "SessionEnd": 1500 * time.Millisecond},
		ProjectEnv:      "CLAUDE_PROJECT_DIR",
		StartFolderOnly: true,
		EnvFileEnv:      "CLAUDE_ENV_FILE",
		CapsStopBlocks:  true,
		decode:          decodeClaude,
		encode:          encodeClaude,
		// systemMessage: shown to the user, on every event that does not drop it.
		notice: noticeSystemMessage,
		// VS Code runs .claude/settings.json too, entries install wrote
		// included: it is told by its payload and answered in its shape.
		hosts: []*Host{vscodeHost(false)},
	}
}

// claudeEvents maps every Claude Code event of the catalog to itself.
func claudeEvents() map[string]string {
	m := map[string]string{}
	for _, e := range protocol.Events() {
		if e.Claude != "" {
			m[e.Claude] = e.Name
		}
	}
	return m
}

// decodeClaude keeps the payload and adds the Hermes host fields Hermes
// scripts read, where Claude names them differently: the prompt as
// user_message, the last assistant message as final_response (Stop) or
// child_summary (SubagentStop).
func decodeClaude(_ string, ev *protocol.Event, payload map[string]any) map[string]any {
	f := copyFields(payload, 2)
	alias(f, "prompt", "user_message")
	if ev.Stops {
		if ev.HermesReply == protocol.ReplyVerify {
			alias(f, "last_assistant_message", "final_response")
		} else {
			alias(f, "last_assistant_message", "child_summary")
		}
	}
	return f
}

// encodeClaude writes the outcome as Claude Code reads a command hook's
// JSON stdout (exit 0): hookSpecificOutput.permissionDecision (+ reason,
// updatedInput) on PreToolUse-like events, hookSpecificOutput.decision on
// PermissionRequest, decision/reason on events a block refuses or keeps
// going, additionalContext, updatedToolOutput, continue:false + stopReason
// and systemMessage. Keys follow Claude Code's documentation order.
func encodeClaude(c *Call, o *protocol.Outcome) Reply {
	if c.Event.PlainResult {
		if r, ok := plainResult(o); ok {
			return r
		}
	}
	return jsonReply(claudeReply(c, o))
}

// plainResult is the reply on an event whose result Claude Code reads as
// plain stdout (WorktreeCreate, spec §4.2 and §4.4): a block fails the
// action as a failing hook does, by a non-zero exit with the reason on
// stderr; a result is printed as it is. ok is false for neither: a hook
// that answered in JSON (2.1.332's hookSpecificOutput.worktreePath) is
// answered in JSON.
func plainResult(o *protocol.Outcome) (Reply, bool) {
	switch {
	case o.Decision == protocol.DecisionBlock:
		return Reply{Exit: 1, Stderr: []byte(blockReason(o) + "\n")}, true
	case o.Result != nil:
		return Reply{Stdout: []byte(*o.Result + "\n")}, true
	}
	return Reply{}, false
}

// claudeReply is encodeClaude's object, which hosts that read Claude
// Code's replies (VS Code) adjust.
func claudeReply(c *Call, o *protocol.Outcome) protocol.Object {
	ev := c.Event
	name := c.AgentEvent
	if name == "" {
		name = ev.ClaudeName()
	}
	var top protocol.Object
	if o.Stop {
		top = append(top, protocol.KV{Key: "continue", Value: false})
		if o.StopReason != "" {
			top = append(top, protocol.KV{Key: "stopReason", Value: o.StopReason})
		}
	}
	if o.SystemMessage != "" && !ev.DropsSystemMessage {
		top = append(top, protocol.KV{Key: "systemMessage", Value: o.SystemMessage})
	}
	if o.TerminalSequence != "" {
		top = append(top, protocol.KV{Key: "terminalSequence", Value: o.TerminalSequence})
	}
	hso := protocol.Object{{Key: "hookEventName", Value: name}}
	switch {
	case ev.Permission:
		decision, reason := permissionDecision(c, o)
		if decision == "" && o.Deferred && c.Host == nil && !ev.RefusesAsk {
			// Claude Code's own value, given back to it: it parks the
			// call for a `claude -p` caller (and ignores it where it
			// cannot). A host reading this shape (VS Code) has no defer.
			decision = "defer"
		}
		if decision != "" {
			hso = append(hso, protocol.KV{Key: "permissionDecision", Value: decision})
			if reason != "" {
				hso = append(hso, protocol.KV{Key: "permissionDecisionReason", Value: reason})
			}
		}
		if o.Args != nil && ev.UpdatedInput {
			hso = append(hso, protocol.KV{Key: "updatedInput", Value: o.Args})
		}
	case ev.Behavior:
		switch o.Decision {
		case protocol.DecisionBlock:
			d := protocol.Object{{Key: "behavior", Value: "deny"}}
			if o.Message != "" {
				d = append(d, protocol.KV{Key: "message", Value: o.Message})
			}
			hso = append(hso, protocol.KV{Key: "decision", Value: withMembers(d, o.DecisionMembers())})
		case protocol.DecisionAllow:
			d := protocol.Object{{Key: "behavior", Value: "allow"}}
			if o.Args != nil {
				d = append(d, protocol.KV{Key: "updatedInput", Value: o.Args})
			}
			hso = append(hso, protocol.KV{Key: "decision", Value: withMembers(d, o.DecisionMembers())})
		}
	case o.Decision == protocol.DecisionBlock && ev.Can(protocol.CapBlock|protocol.CapContinue):
		// PostToolUse feedback, UserPromptSubmit refusal, Stop's "keep
		// going" and the other events a top-level block applies to.
		top = append(top, protocol.KV{Key: "decision", Value: "block"}, protocol.KV{Key: "reason", Value: blockReason(o)})
	}
	if ctx := joinContext(o); ctx != "" && ev.Can(protocol.CapContext) {
		hso = append(hso, protocol.KV{Key: "additionalContext", Value: ctx})
	}
	if key, value, ok := o.ToolOutput(); ok && ev.ToolOutput {
		// As the hook wrote it: an object stays one, the legacy name stays.
		hso = append(hso, protocol.KV{Key: key, Value: value})
	}
	hso = withHookSpecific(hso, o)
	if len(hso) > 1 {
		top = append(top, protocol.KV{Key: "hookSpecificOutput", Value: hso})
	}
	return top
}

// withHookSpecific appends the hookSpecificOutput members the hooks wrote
// that hermes-hooks does not model (worktreePath, sessionTitle, retry …),
// in key order, after the ones it wrote itself (never over one of them):
// an agent that reads Claude Code's reply shape gets its own fields back
// as its hooks wrote them (issue 31, item 16). Codex is not given them: it
// rejects a reply with a member its schema for the event lacks.
func withHookSpecific(hso protocol.Object, o *protocol.Outcome) protocol.Object {
	hs := make(map[string]any, len(o.HookSpecific))
	for k, v := range o.HookSpecific {
		// What is left of a member hermes-hooks folds (a decision's
		// interrupt) is written by the encoder that writes the member,
		// never on its own, where it would not be the member's shape.
		if !protocol.HookSpecificModelled(k) {
			hs[k] = v
		}
	}
	return withMembers(hso, hs)
}

// withMembers appends members to obj in key order, never over one obj
// has.
func withMembers(obj protocol.Object, members map[string]any) protocol.Object {
	keys := make([]string, 0, len(members))
	for k := range members {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !slices.ContainsFunc(obj, func(kv protocol.KV) bool { return kv.Key == k }) {
			obj = append(obj, protocol.KV{Key: k, Value: members[k]})
		}
	}
	return obj
}

// permissionDecision is the outcome's permissionDecision and its reason. On
// an event where Claude Code refuses what an ask or a changed input would
// need (PreSkillShellCommand), the outcome says "deny" itself, with the
// reason Claude Code would give: the agent then refuses as it would have,
// and the reply does not rest on its translating a decision it cannot keep.
func permissionDecision(c *Call, o *protocol.Outcome) (string, string) {
	ev := c.Event
	title := c.Agent.Title
	if c.Host != nil {
		title = c.Host.Title
	}
	switch {
	case ev.RefusesAsk && o.Decision == protocol.DecisionAsk:
		c.refuses(title + " cannot ask at " + ev.Name + " (" + protocol.AskRefusedReason + "); this call is refused")
		if o.Message == "" {
			return "deny", protocol.AskRefusedReason
		}
		return "deny", o.Message + "; " + protocol.AskRefusedReason
	case ev.RefusesInputChange && o.Args != nil && o.Decision != protocol.DecisionBlock:
		c.refuses(title + " cannot run rewritten arguments at " + ev.Name + " (" + protocol.InputChangeRefusedReason + "); this call is refused")
		return "deny", protocol.InputChangeRefusedReason
	}
	decision := map[protocol.Decision]string{
		protocol.DecisionBlock: "deny", protocol.DecisionAsk: "ask", protocol.DecisionAllow: "allow",
	}[o.Decision]
	return decision, o.Message
}

// blockReason is the reason a top-level block carries: Claude Code needs
// one (Stop's becomes the model's next instruction).
func blockReason(o *protocol.Outcome) string {
	if o.Message != "" {
		return o.Message
	}
	return "Blocked by hook"
}

// joinContext is the context for the model: the outcome's, then what
// pre_llm_call hooks asked to inject (Claude Code has one channel for both).
func joinContext(o *protocol.Outcome) string {
	var parts []string
	for _, s := range []string{o.Context, o.InjectSystem, o.InjectUser} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "\n\n")
}

// claudeRenamed is Claude Code's hook protocol as spoken by an agent that
// keeps it but names its tools its own way (Qwen Code, Factory Droid), for
// the hooks of that agent's settings file when hermes-hooks runs them: the
// payload carries the agent's event name, tool name and tool input keys,
// matchers are compared with the agent's tool name, and replies are read by
// Claude Code's rules (those agents read a subset of them) or the agent's
// own (read: Qwen's).
type claudeRenamed struct {
	dialect protocol.Dialect
	// tools maps Claude Code's tool names to the agent's (others: as
	// they are).
	tools func() map[string]string
	// input is a Claude Code tool input as the agent's tool names its
	// keys (nil: the same); in must not be modified.
	input func(agentTool string, in map[string]any) map[string]any
	vars  []string
	// read reads a run as the agent reads it (nil: by Claude Code's
	// rules).
	read func(declared string, r protocol.Reply) protocol.Read
}

func (c claudeRenamed) Dialect() protocol.Dialect { return c.dialect }

func (c claudeRenamed) ProjectVars() []string { return c.vars }

// tool is the firing's tool by the agent's name.
func (c claudeRenamed) tool(fields map[string]any, tools *protocol.ToolTable) string {
	name, _ := fields["tool_name"].(string)
	claude := tools.Claude(name)
	if n, ok := c.tools()[claude]; ok {
		return n
	}
	return claude
}

func (c claudeRenamed) Payload(declared string, ev *protocol.Event, fields map[string]any, env protocol.PayloadEnv) []byte {
	obj := protocol.ClaudePayload(ev, fields, env)
	for i, kv := range obj {
		switch kv.Key {
		case "hook_event_name":
			obj[i].Value = declared
		case "tool_name":
			obj[i].Value = c.tool(fields, env.Tools)
		case "tool_input":
			if in, ok := kv.Value.(map[string]any); ok && c.input != nil {
				obj[i].Value = c.input(c.tool(fields, env.Tools), in)
			}
		}
	}
	return pyjson.Append(nil, obj, pyjson.Compact)
}

// ReadReply reads one run of such a hook as the agent does (read), else
// as the Claude dialect does, with what the parser knew beside the note
// (protocol.ReplyReader).
func (c claudeRenamed) ReadReply(declared string, r protocol.Reply) protocol.Read {
	if c.read != nil {
		return c.read(declared, r)
	}
	r.Dialect = protocol.Claude
	return protocol.ReadReply(r)
}

func (c claudeRenamed) MatchSubject(_ string, ev *protocol.Event, fields map[string]any, tools *protocol.ToolTable) (string, bool) {
	q, ok := protocol.ClaudeMatchQuery(ev, fields, tools)
	if ok && ev.ClaudeMatchOn == "tool_name" {
		return c.tool(fields, tools), true
	}
	return q, ok
}

// claudeShaped is a reply of an agent that reads Claude Code's keys, in
// Claude Code's documented order: top (continue, stopReason), the
// outcome's systemMessage, the decision's members, then
// hookSpecificOutput — hso (hookEventName first) with ctx as
// additionalContext — when it says more than the event's name.
func claudeShaped(top protocol.Object, o *protocol.Outcome, decision protocol.Object, ctx string, hso protocol.Object) Reply {
	if o.SystemMessage != "" {
		top = append(top, protocol.KV{Key: "systemMessage", Value: o.SystemMessage})
	}
	top = append(top, decision...)
	if ctx != "" {
		hso = append(hso, protocol.KV{Key: "additionalContext", Value: ctx})
	}
	hso = withHookSpecific(hso, o)
	if len(hso) > 1 {
		top = append(top, protocol.KV{Key: "hookSpecificOutput", Value: hso})
	}
	return jsonReply(top)
}
