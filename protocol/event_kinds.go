package protocol

// The kinds a catalog row's rule fields take (events.go): what a Claude
// exit code does there, and how a Hermes reply is read and an outcome
// rendered for a Hermes host.

// ClaudeExit2 says what a Claude-dialect exit code 2 does on an event.
type ClaudeExit2 uint8

const (
	// Exit2Ignored: exit 2 has no effect (Notification, PermissionRequest…).
	Exit2Ignored ClaudeExit2 = iota
	// Exit2Blocks: exit 2 blocks the action with stderr as the reason.
	Exit2Blocks
	// Exit2User: stderr is shown to the user only (SessionStart, SessionEnd…).
	Exit2User
	// ExitNonZeroBlocks: not only exit 2, any non-zero exit refuses the
	// action, stderr the reason (WorktreeCreate: the creation fails).
	ExitNonZeroBlocks
)

// HermesReplyKind says which Hermes reply forms an event reads beyond
// context.
type HermesReplyKind uint8

const (
	// ReplyContext: {"context": …}, plus transform results on transform
	// events.
	ReplyContext HermesReplyKind = iota
	// ReplyTool: block, modify / rewrite, approve (pre_tool_call).
	ReplyTool
	// ReplyVerify: continue (pre_verify).
	ReplyVerify
	// ReplyInput: rewrite, block (transform_user_input).
	ReplyInput
	// ReplyLLM: context, inject_system / inject_user, block (pre_llm_call).
	ReplyLLM
	// ReplyGateway: skip, rewrite, allow (pre_gateway_dispatch).
	ReplyGateway
)

// WireKind is how an outcome is rendered in Hermes' directive shape.
type WireKind uint8

const (
	// WireContext: {"context": …} (a non-gating block's message with it),
	// {"result": …}, or {}.
	WireContext WireKind = iota
	// WireTool: block, approve, modify (pre_tool_call).
	WireTool
	// WireContinue: a block is {"action": "continue"} (stop events).
	WireContinue
	// WireBlock: a block is {"action": "block"} (pre_llm_call,
	// transform_user_input).
	WireBlock
	// WireGateway: {"action": "skip", "reason": …} (a block),
	// {"action": "rewrite", "text": …} (a replacement text) or
	// {"action": "allow"} (pre_gateway_dispatch).
	WireGateway
)
