package protocol

import "time"

// Capability is what a hook's reply can change for an event.
type Capability uint16

const (
	// CapBlock: a reply can refuse the action (or, on stop events, refuse to
	// stop; on post_tool_call, send feedback beside the result).
	CapBlock Capability = 1 << iota
	// CapModify: a reply can rewrite the tool arguments.
	CapModify
	// CapApprove: a reply can ask for human approval (Hermes "approve",
	// Claude "ask") or pre-approve (Claude "allow").
	CapApprove
	// CapContext: a reply can add context for the model.
	CapContext
	// CapContinue: a reply can keep the agent going with a message
	// (Hermes pre_verify "continue", Claude Stop "block").
	CapContinue
	// CapTransform: a reply can replace a text (transform_* events).
	CapTransform
	// CapInject: a reply can add a system or user message to the model's
	// request (pre_llm_call inject_system / inject_user).
	CapInject
)

var capNames = []struct {
	c    Capability
	name string
}{
	{CapBlock, "block"}, {CapModify, "modify"}, {CapApprove, "approve"},
	{CapContext, "context"}, {CapContinue, "continue"}, {CapTransform, "transform"},
	{CapInject, "inject"},
}

// Names lists the capabilities in a fixed order, for docs and --json output.
func (c Capability) Names() []string {
	var out []string
	for _, n := range capNames {
		if c&n.c != 0 {
			out = append(out, n.name)
		}
	}
	return out
}

// Event describes one canonical event. Events are immutable; callers get
// pointers into the catalog and must not modify them.
type Event struct {
	// Name is the canonical name: the Hermes name where Hermes has the event,
	// otherwise the Claude Code name (for Claude-only events).
	Name string
	// Claude is the Claude Code name of the event, or "" when Claude Code has
	// no twin.
	Claude string
	// Aliases are further accepted names (beyond Name and Claude).
	Aliases []string
	// Hermes reports whether the event is in Hermes' VALID_HOOKS.
	Hermes bool
	// ClaudeOnly reports an event Claude Code has and Hermes does not.
	ClaudeOnly bool
	// ShellUnsupported events are refused for shell hooks (Hermes says
	// "Python-plugin-only"): a config entry for them is dropped with a warning.
	ShellUnsupported bool
	// Tool reports whether the event carries a tool name.
	Tool bool
	// HermesMatcher reports whether a Hermes-dialect matcher is honoured.
	HermesMatcher bool
	// ClaudeMatchOn names the field a Claude-dialect matcher is compared
	// against ("" = matcher ignored, every group runs).
	ClaudeMatchOn string
	// Exit2 is what a Claude-dialect exit 2 does.
	Exit2 ClaudeExit2
	// Caps is what replies can do on this event.
	Caps Capability
	// TextField names the payload field a transform_* event rewrites.
	TextField string
	// Permission: a Claude reply's hookSpecificOutput.permissionDecision
	// (allow, deny, ask, defer) and its reason apply (PreToolUse,
	// PreModelSwitch); UpdatedInput: its updatedInput replaces the tool
	// input (PreToolUse).
	Permission   bool
	UpdatedInput bool
	// gates: a block refuses a tool call (Hermes' "blocking" events:
	// fail_closed, exit 2 and a guard that cannot run block). See Gating.
	gates bool
	// Stops: a stop event (Stop, SubagentStop): a block keeps the agent
	// going, under the cap of consecutive blocks, and Claude hooks see
	// stop_hook_active.
	Stops bool
	// EndsSession: the session's state is forgotten after this event.
	EndsSession bool
	// PlainContext: a Claude hook's plain (non-JSON) stdout is context.
	PlainContext bool
	// PlainResult: a Claude hook's plain stdout on exit 0 is the event's
	// result, which Claude Code reads from its stdout (WorktreeCreate's
	// path): Outcome.Result.
	PlainResult bool
	// SoftMissingScript: a Claude exit 2 whose stderr says the script is
	// missing is a non-blocking error, not a block (Claude Code does this
	// for stop-like events, so a deleted script cannot wedge the agent).
	SoftMissingScript bool
	// DropsSystemMessage: Claude Code discards systemMessage here.
	DropsSystemMessage bool
	// Behavior: a Claude reply's hookSpecificOutput.decision.behavior
	// (allow / deny, with updatedInput and message) applies
	// (PermissionRequest); ToolOutput: its updatedToolOutput replaces the
	// tool's result (PostToolUse).
	Behavior   bool
	ToolOutput bool
	// HermesReply is how a Hermes-dialect reply is read here, and
	// HermesWire how the outcome is rendered for a Hermes host.
	HermesReply HermesReplyKind
	HermesWire  WireKind
	// ClaudeFields are the event's own Claude payload fields, derived from
	// a Hermes host's fields when the host did not send them.
	ClaudeFields []ClaudeField
	// ClaudeTimeout is Claude Code's default timeout for the event's
	// command hooks, in seconds (0: its general default).
	ClaudeTimeout int
	// ClaudeBudget, when set, is the time the event's Claude hooks share
	// in Claude Code whatever their own timeouts (SessionEnd: the session
	// is closing, and Claude Code exits after them).
	ClaudeBudget *SharedBudget
	// ClaudeNarrowNames: a Claude matcher is a list of exact names here
	// only when it is made of letters, digits, "_" and "|"; a "-", "," or
	// space makes it a regex. Claude Code widened the name set to those
	// on every other event (v2.1.191, v2.1.195) but kept its older rule on
	// StopFailure and FileChanged (IsClaudeNameList).
	ClaudeNarrowNames bool
	// Synthetic builds the event fields `hermes-hooks test` and doctor
	// fire the event with (as Hermes' own hooks test does); nil: only a
	// session id.
	Synthetic func() map[string]any
	// IfRule: a Claude handler's "if" permission rule is evaluated here
	// (the tool events); elsewhere a handler carrying "if" never runs.
	IfRule bool
	// EnvFile: Claude-dialect hooks of this event get CLAUDE_ENV_FILE, a
	// file whose `export` lines set variables for the session's later
	// commands (SessionStart, Setup, CwdChanged, FileChanged).
	EnvFile bool
	// Gateway: an event of Hermes' gateway hooks (a HOOK.yaml's events,
	// fired only in the messaging gateway), which reaches hermes-hooks
	// through the gateway bridge (`install hermes --gateway`), not the
	// plugin. An observer: the bridge hands it over in the background and
	// the gateway never waits for it, as Hermes' own handlers never block
	// the gateway.
	Gateway bool
	// FamilyField makes the row a family of events, "prefix:*" (command:*,
	// any slash command): Lookup resolves every "prefix:NAME" to it, an
	// entry declared under "prefix:NAME" runs only when the host field
	// FamilyField names NAME (see Admits), and one declared under the
	// row's own name runs for every member, as Hermes' wildcard does.
	FamilyField string
	// FailClosedToo: fail_closed is honoured although the event gates no
	// tool call: a failing fail_closed entry's failure is a block
	// (pre_gateway_dispatch: the message is skipped).
	FailClosedToo bool
	// Refuses is what a block here refuses, as a refusal names it (Refused).
	Refuses string
	// FirstDecides: the first contribution in config order that decides
	// (a decision, or a replacement text) is the outcome's, and later
	// ones do not change it (pre_gateway_dispatch, whose plugin results
	// Hermes reads as "the first recognised action wins").
	FirstDecides bool
	// RefusesAsk: a Claude reply's permissionDecision "ask" or "defer" is
	// a refusal, with Claude Code's reason AskRefusedReason (nobody can be
	// asked here: PreSkillShellCommand, a skill's shell command).
	RefusesAsk bool
	// RefusesInputChange: a Claude reply's updatedInput is never applied;
	// any value refuses the action, with InputChangeRefusedReason, unless
	// the reply already refuses it (PreSkillShellCommand).
	RefusesInputChange bool
	// HSOAliases are further hookSpecificOutput.hookEventName values a
	// Claude reply may carry here and still be read
	// (PreSkillShellCommand takes a PreToolUse-shaped one).
	HSOAliases []string
	// AlsoRuns: another event whose entries run here too (forward.go).
	AlsoRuns string
}

// FailsClosed reports whether a fail_closed entry's failure blocks on this
// event: where a block refuses a tool call (Gating), and where the catalog
// says so (FailClosedToo).
func (e *Event) FailsClosed() bool { return e != nil && (e.gates || e.FailClosedToo) }

// Can reports whether the event has capability c.
func (e *Event) Can(c Capability) bool { return e != nil && e.Caps&c != 0 }

// Gating reports whether a block on this event refuses a tool call (the
// Hermes "blocking" events: fail_closed and exit-2 blocks apply).
func (e *Event) Gating() bool { return e != nil && e.gates }

// SharedBudget is how long an event's Claude hooks may run together:
// Min, raised to the largest timeout one of them configures, at most Max;
// the variable Env, when it holds a number of milliseconds above 0, is the
// budget instead.
type SharedBudget struct {
	Min, Max time.Duration
	Env      string
}

// ClaudeField is one of an event's own Claude payload fields: when the host
// did not send it, the first of From the host did send is used (through
// the field's own conversion, for tool_response and prompt), else Default.
type ClaudeField struct {
	Name    string
	From    []string
	Default any
}

// ClaudeName is the name a Claude-dialect hook sees in hook_event_name and
// must echo in hookSpecificOutput.hookEventName.
func (e *Event) ClaudeName() string {
	if e.Claude != "" {
		return e.Claude
	}
	return e.Name
}

const (
	capObserve = CapContext
	capTool    = CapBlock | CapModify | CapApprove | CapContext
)

// Claude fields shared by the subagent events.
var (
	agentID   = ClaudeField{Name: "agent_id", From: []string{"child_subagent_id", "child_session_id"}}
	agentType = ClaudeField{Name: "agent_type", From: []string{"child_role"}}
)

// catalog lists every event. Hermes' 41 VALID_HOOKS first (sorted as Hermes
// prints them), then Hermes' gateway hook events, then hermes-hooks' own
// canonical events, then the Claude-only events.
var catalog = []Event{
	{Name: "agent_loop_stopped", Hermes: true, Caps: capObserve},
	{Name: "api_request_error", Hermes: true, Caps: capObserve},
	{Name: "gateway_platform_event", Hermes: true, Caps: capObserve},
	{Name: "kanban_task_blocked", Hermes: true, Caps: capObserve},
	{Name: "kanban_task_claimed", Hermes: true, Caps: capObserve},
	{Name: "kanban_task_completed", Hermes: true, Caps: capObserve},
	{Name: "on_interim_message", Hermes: true, Caps: capObserve},
	{Name: "on_kanban_dispatch_tick", Hermes: true, Caps: capObserve},
	{Name: "on_kanban_task_updated", Hermes: true, Caps: capObserve},
	{Name: "on_kanban_worker_exited", Hermes: true, Caps: capObserve},
	{Name: "on_kanban_worker_spawned", Hermes: true, Caps: capObserve},
	{Name: "on_kanban_worker_stale_claim", Hermes: true, Caps: capObserve},
	{Name: "on_room_member_activity", Hermes: true, Caps: capObserve},
	{Name: "on_session_end", Claude: "SessionEnd", Hermes: true, ClaudeMatchOn: "reason", Exit2: Exit2User, Caps: capObserve, EndsSession: true, DropsSystemMessage: true,
		ClaudeFields: []ClaudeField{{Name: "reason", From: []string{"turn_exit_reason"}, Default: "other"}}, Synthetic: synSessionEnd,
		ClaudeBudget: &SharedBudget{Min: 1500 * time.Millisecond, Max: 60 * time.Second, Env: "CLAUDE_CODE_SESSIONEND_HOOKS_TIMEOUT_MS"}},
	{Name: "on_session_finalize", Hermes: true, Caps: capObserve, EndsSession: true, Synthetic: synSessionOnly},
	{Name: "on_session_reset", Hermes: true, Caps: capObserve, Synthetic: synSessionOnly},
	{Name: "on_session_start", Claude: "SessionStart", Hermes: true, ClaudeMatchOn: "source", Exit2: Exit2User, Caps: capObserve, EnvFile: true, PlainContext: true,
		ClaudeFields: []ClaudeField{{Name: "source", Default: "startup"}}, Synthetic: synSessionOnly},
	{Name: "on_skill_lifecycle", Hermes: true, Caps: capObserve},
	{Name: "on_stream_delta", Hermes: true, Caps: capObserve},
	{Name: "on_stream_end", Hermes: true, Caps: capObserve},
	{Name: "on_stream_start", Hermes: true, Caps: capObserve},
	{Name: "post_api_request", Hermes: true, Caps: capObserve, Synthetic: synPostAPIRequest},
	{Name: "post_approval_response", Hermes: true, Tool: true, Caps: capObserve},
	{Name: "post_auxiliary_call", Hermes: true, Caps: capObserve, Synthetic: synAuxiliaryCall},
	{Name: "post_llm_call", Hermes: true, Caps: capObserve, Synthetic: synPostLLMCall},
	{Name: "post_tool_call", Claude: "PostToolUse", Hermes: true, Tool: true, IfRule: true, HermesMatcher: true, ClaudeMatchOn: "tool_name", Exit2: Exit2Blocks, Caps: CapBlock | CapContext | CapTransform,
		ToolOutput: true, ClaudeFields: []ClaudeField{{Name: "tool_response", From: []string{"result"}}}, Synthetic: synPostToolCall},
	{Name: "pre_api_request", Hermes: true, Caps: capObserve, Synthetic: synPreAPIRequest},
	{Name: "pre_approval_request", Hermes: true, Tool: true, Caps: capObserve},
	{Name: "pre_auxiliary_call", Hermes: true, Caps: capObserve, Synthetic: synAuxiliaryCall},
	{Name: "pre_command", Hermes: true, Caps: capObserve},
	// A plugin's result decides the gateway's flow here (skip the message,
	// rewrite its text, or allow it), the first recognised one winning;
	// the plugin carries a shell hook's reply to it.
	{Name: "pre_gateway_dispatch", Hermes: true, Caps: CapBlock | CapTransform, HermesReply: ReplyGateway, HermesWire: WireGateway,
		FailClosedToo: true, Refuses: "gateway messages", FirstDecides: true, Synthetic: synGatewayDispatch},
	{Name: "pre_llm_call", Claude: "UserPromptSubmit", Aliases: []string{"before_llm_call"}, Hermes: true, Exit2: Exit2Blocks, Caps: CapBlock | CapContext | CapInject,
		PlainContext: true, HermesReply: ReplyLLM, HermesWire: WireBlock, ClaudeTimeout: 30,
		ClaudeFields: []ClaudeField{{Name: "prompt", From: []string{"user_message"}}}, Synthetic: synPreLLMCall},
	{Name: "pre_tool_call", Claude: "PreToolUse", Aliases: []string{"intercept_tool_call"}, Hermes: true, Tool: true, IfRule: true, HermesMatcher: true, ClaudeMatchOn: "tool_name", Exit2: Exit2Blocks, Caps: capTool,
		Permission: true, UpdatedInput: true, gates: true, HermesReply: ReplyTool, HermesWire: WireTool, Synthetic: synPreToolCall},
	{Name: "pre_transcription", Hermes: true, Caps: capObserve},
	{Name: "pre_verify", Claude: "Stop", Hermes: true, Exit2: Exit2Blocks, Caps: CapContinue | CapContext, Stops: true, SoftMissingScript: true,
		HermesReply: ReplyVerify, HermesWire: WireContinue, Synthetic: synPreVerify,
		ClaudeFields: []ClaudeField{{Name: "stop_hook_active", Default: false}, {Name: "last_assistant_message", From: []string{"final_response"}}}},
	{Name: "subagent_start", Claude: "SubagentStart", Hermes: true, ClaudeMatchOn: "agent_type", Exit2: Exit2User, Caps: capObserve,
		ClaudeFields: []ClaudeField{agentID, agentType}},
	{Name: "subagent_stop", Claude: "SubagentStop", Hermes: true, ClaudeMatchOn: "agent_type", Exit2: Exit2Blocks, Caps: CapContinue | CapContext, Stops: true, SoftMissingScript: true,
		HermesWire: WireContinue, Synthetic: synSubagentStop,
		ClaudeFields: []ClaudeField{{Name: "stop_hook_active", Default: false}, agentID, agentType, {Name: "last_assistant_message", From: []string{"child_summary"}}}},
	{Name: "transform_api_error_classification", Hermes: true, ShellUnsupported: true},
	{Name: "transform_llm_output", Hermes: true, Caps: CapTransform, TextField: "response_text"},
	{Name: "transform_terminal_output", Hermes: true, Caps: CapTransform, TextField: "output"},
	{Name: "transform_tool_result", Hermes: true, Tool: true, Caps: CapTransform, TextField: "result"},

	// Hermes' gateway hooks (HOOK.yaml events, the messaging gateway only),
	// with the context keys Hermes documents for them.
	{Name: "gateway:startup", Gateway: true, Synthetic: synGatewayStartup},
	{Name: "session:start", Gateway: true, Synthetic: synGatewaySession},
	{Name: "session:end", Gateway: true, Synthetic: synGatewaySession},
	{Name: "session:reset", Gateway: true, Synthetic: synGatewaySession},
	{Name: "agent:start", Gateway: true, Synthetic: synAgentStart},
	{Name: "agent:step", Gateway: true, Synthetic: synAgentStep},
	{Name: "agent:end", Gateway: true, Synthetic: synAgentEnd},
	{Name: "command:*", Gateway: true, FamilyField: "command", Synthetic: synGatewayCommand},

	// hermes-hooks' own canonical event (runtime extension hooks).
	{Name: "transform_user_input", Caps: CapBlock | CapTransform, TextField: "user_message", HermesReply: ReplyInput, HermesWire: WireBlock},

	// Claude Code events with no Hermes twin.
	{Name: "PostToolUseFailure", Claude: "PostToolUseFailure", ClaudeOnly: true, Tool: true, IfRule: true, ClaudeMatchOn: "tool_name", Exit2: Exit2Blocks, Caps: CapBlock | CapContext},
	{Name: "Notification", Claude: "Notification", ClaudeOnly: true, ClaudeMatchOn: "notification_type", Caps: capObserve, DropsSystemMessage: true},
	{Name: "PreCompact", Claude: "PreCompact", ClaudeOnly: true, ClaudeMatchOn: "trigger", Exit2: Exit2Blocks, Caps: CapBlock | capObserve, DropsSystemMessage: true},
	{Name: "PostCompact", Claude: "PostCompact", ClaudeOnly: true, ClaudeMatchOn: "trigger", Exit2: Exit2User, Caps: capObserve, DropsSystemMessage: true},
	{Name: "PermissionRequest", Claude: "PermissionRequest", ClaudeOnly: true, Tool: true, IfRule: true, ClaudeMatchOn: "tool_name", Caps: CapBlock | CapApprove | CapModify, Behavior: true},
	{Name: "PermissionDenied", Claude: "PermissionDenied", ClaudeOnly: true, Tool: true, IfRule: true, ClaudeMatchOn: "tool_name", Caps: capObserve},
	{Name: "Setup", Claude: "Setup", ClaudeOnly: true, ClaudeMatchOn: "trigger", Exit2: Exit2User, Caps: capObserve, EnvFile: true},
	{Name: "TeammateIdle", Claude: "TeammateIdle", ClaudeOnly: true, Exit2: Exit2Blocks, Caps: CapBlock, SoftMissingScript: true},
	{Name: "TaskCreated", Claude: "TaskCreated", ClaudeOnly: true, Exit2: Exit2Blocks, Caps: CapBlock},
	{Name: "TaskCompleted", Claude: "TaskCompleted", ClaudeOnly: true, Exit2: Exit2Blocks, Caps: CapBlock, SoftMissingScript: true},
	{Name: "ConfigChange", Claude: "ConfigChange", ClaudeOnly: true, ClaudeMatchOn: "source", Exit2: Exit2Blocks, Caps: CapBlock},
	// The hook creates the worktree: it prints the path, and any non-zero
	// exit fails the creation (a block here).
	{Name: "WorktreeCreate", Claude: "WorktreeCreate", ClaudeOnly: true, Exit2: ExitNonZeroBlocks, Caps: CapBlock, PlainResult: true},
	{Name: "WorktreeRemove", Claude: "WorktreeRemove", ClaudeOnly: true, Caps: capObserve},
	{Name: "InstructionsLoaded", Claude: "InstructionsLoaded", ClaudeOnly: true, ClaudeMatchOn: "load_reason", Caps: capObserve, DropsSystemMessage: true},
	{Name: "Elicitation", Claude: "Elicitation", ClaudeOnly: true, ClaudeMatchOn: "mcp_server_name", Exit2: Exit2Blocks, Caps: CapBlock},
	{Name: "ElicitationResult", Claude: "ElicitationResult", ClaudeOnly: true, ClaudeMatchOn: "mcp_server_name", Exit2: Exit2Blocks, Caps: CapBlock},
	{Name: "StopFailure", Claude: "StopFailure", ClaudeOnly: true, ClaudeMatchOn: "error", ClaudeNarrowNames: true, Caps: capObserve, DropsSystemMessage: true},
	{Name: "CwdChanged", Claude: "CwdChanged", ClaudeOnly: true, Exit2: Exit2User, Caps: capObserve, EnvFile: true},
	{Name: "FileChanged", Claude: "FileChanged", ClaudeOnly: true, ClaudeMatchOn: "file_path", ClaudeNarrowNames: true, Exit2: Exit2User, Caps: capObserve, EnvFile: true},
	{Name: "MessageDisplay", Claude: "MessageDisplay", ClaudeOnly: true, Caps: capObserve, ClaudeTimeout: 10},
	{Name: "UserPromptExpansion", Claude: "UserPromptExpansion", ClaudeOnly: true, ClaudeMatchOn: "command_name", Exit2: Exit2Blocks, Caps: CapBlock | CapContext, PlainContext: true},
	{Name: "PostToolBatch", Claude: "PostToolBatch", ClaudeOnly: true, Exit2: Exit2Blocks, Caps: CapBlock | CapContext},
	{Name: "DirectoryAdded", Claude: "DirectoryAdded", ClaudeOnly: true, ClaudeMatchOn: "source", Caps: capObserve},
	// Claude Code 2.1.3xx: before and after the session's model changes.
	// PreModelSwitch answers like PreToolUse (deny cancels the switch, ask
	// asks the user); the matcher is compared with the model switched to.
	{Name: "PreModelSwitch", Claude: "PreModelSwitch", ClaudeOnly: true, ClaudeMatchOn: "to_model", Exit2: Exit2Blocks, Caps: CapBlock | CapApprove, Permission: true, ClaudeTimeout: 30},
	{Name: "PostModelSwitch", Claude: "PostModelSwitch", ClaudeOnly: true, ClaudeMatchOn: "to_model", Caps: capObserve, ClaudeTimeout: 30},
	// Claude Code 2.1.332: a shell command in a skill's or slash command's
	// text. It gates like PreToolUse (and runs its terminal guards), but ask
	// and updatedInput refuse, allow adds nothing, no additionalContext.
	{Name: "PreSkillShellCommand", Claude: "PreSkillShellCommand", ClaudeOnly: true, Tool: true, IfRule: true, ClaudeMatchOn: "tool_name", Exit2: Exit2Blocks, Caps: CapBlock,
		Permission: true, gates: true, RefusesAsk: true, RefusesInputChange: true, HSOAliases: []string{"PreToolUse"}, AlsoRuns: "pre_tool_call"},
}

// byName maps every accepted name (canonical, Claude, aliases) to its event.
var byName = func() map[string]*Event {
	m := make(map[string]*Event, len(catalog)*2)
	for i := range catalog {
		e := &catalog[i]
		m[e.Name] = e
		if e.Claude != "" {
			m[e.Claude] = e
		}
		for _, a := range e.Aliases {
			m[a] = e
		}
	}
	return m
}()

// Lookup resolves any accepted event name — canonical, Claude Code name or
// alias, or a member "prefix:NAME" of a family "prefix:*" (command:model
// is command:*) — to its event. It is exact and case-sensitive, as both
// Hermes and Claude Code are.
func Lookup(name string) (*Event, bool) {
	if e, ok := byName[name]; ok {
		return e, true
	}
	if family, member, ok := familyOf(name); ok && validMember(member) {
		if e, ok := byName[family]; ok && e.FamilyField != "" {
			return e, true
		}
	}
	return nil, false
}

// IsClaudeName reports whether name is a Claude Code event name (so an entry
// declared under it speaks the Claude dialect).
func IsClaudeName(name string) bool {
	e, ok := byName[name]
	return ok && e.Claude == name
}

// Events returns the whole catalog, canonical events in catalog order.
func Events() []*Event {
	out := make([]*Event, len(catalog))
	for i := range catalog {
		out[i] = &catalog[i]
	}
	return out
}
