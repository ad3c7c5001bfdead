// Package protocol is the pure heart of hermes-hooks: the event catalog,
// payload building, reply parsing and the fold of many replies into one
// Outcome. It performs no I/O of any kind (no files, no processes, no clock,
// no environment), so every function here is deterministic and fuzzable; the
// dispatcher package feeds it bytes and facts and acts on what it returns.
//
// # Dialects
//
// Every hook entry speaks one [Dialect]. Hermes hooks receive the Hermes wire
// payload ({hook_event_name, tool_name, tool_input, session_id, cwd, profile,
// extra}) and reply with the Hermes vocabulary (action/decision block, modify,
// approve, context, pre_verify continue, exit code 2, fail_closed). Claude
// hooks receive the Claude Code stdin shape and reply with exit codes,
// hookSpecificOutput, top-level decision, continue:false and systemMessage.
// [ParseReply] turns either into the same [Contribution]. The scripts of an
// agent's own hook file may speak that agent's protocol instead: their
// entries carry a [Codec], which package agents provides, to build their
// payload and read their reply into the same Contribution, per the
// agent's event they are declared under.
//
// # The fold
//
// [Fold] combines the contributions of one firing into one [Outcome]. The rules,
// all of them, are:
//
//  1. Order. Contributions are folded in config order (the order of the
//     reports handed to Fold), never in completion order, so one config and
//     one set of replies always give the same Outcome.
//  2. Gating. block beats defer, defer beats ask, ask beats allow, allow
//     beats none; a winning defer (Claude's "leave it to the host's
//     permission flow") becomes none. Hermes "approve" (ask a human) is
//     ask. The Outcome's
//     message is the message of the first contribution (config order) that
//     carries the winning decision; for ask, its rule_key too. When block
//     wins, every later block of a Claude-dialect hook adds its message,
//     after a blank line ("\n\n"): Claude Code surfaces every blocking
//     hook's reason, where Hermes returns at its first block. Every message
//     remains in the per-hook reports.
//  3. What block means depends on the event: on pre_tool_call the tool call
//     is refused and message is the tool's error for the model; on pre_verify
//     and subagent_stop the agent must not stop yet and message is the
//     instruction to continue with; on post_tool_call message is feedback for
//     the model beside the tool's result; on pre_llm_call (and
//     transform_user_input) the user's turn is refused with message; on
//     pre_gateway_dispatch the gateway skips the message, message being
//     the reason.
//  4. Arguments. Rewrites apply in config order onto the original tool
//     arguments: a Hermes modify shallow-merges its mapping (later keys win;
//     empty mappings are ignored), a Claude updatedInput replaces the whole
//     input. Outcome.Args is present only when some hook rewrote them, and is
//     kept even when the call is blocked, for the record.
//  5. Context. Every non-empty context piece is kept, in config order, joined
//     with one blank line ("\n\n").
//  6. Stop. Any contribution with stop (Claude continue:false) makes the
//     Outcome stop; the first non-empty stop reason wins. A host that
//     cannot stop (Hermes) gets a stop on pre_tool_call as a block, so
//     the tool at least does not run (Outcome.HermesWire).
//  7. System messages (for the user, not the model) are joined with "\n" in
//     config order.
//  8. Replacement text (transform_* events, Claude updatedToolOutput) chains:
//     the dispatcher runs those hooks one after another, feeding each the text
//     the previous one produced, so the last replacement in config order is
//     the result. An absent or empty replacement leaves the text unchanged.
//     The form a Claude hook wrote its replacement in (a value that is not
//     text, the legacy updatedMCPToolOutput) goes with it, in HookSpecific,
//     from that contribution only.
//  9. Injections (pre_llm_call inject_system / inject_user) are kept in
//     config order, each kind joined with a blank line. Metadata maps merge in
//     config order, later keys winning; so do the unmodelled members of
//     Claude-dialect hookSpecificOutput (HookSpecific: worktreePath,
//     sessionTitle, retry …), which the encoders of agents that read
//     Claude Code's reply shape write back; but the members of
//     PermissionRequest's decision beside behavior and message (HookSpecific
//     "decision": interrupt, updatedPermissions …) come only from the
//     contributions that carry the outcome's decision. A Claude
//     terminalSequence is the last in config order (one sequence: two joined
//     may be one Claude Code's allow-list refuses). Session state patches
//     are not folded: the dispatcher applies them to the session's state.
//  10. Failures (spawn error, timeout, non-zero exit without a decision,
//     unparseable stdout) contribute nothing unless the entry is fail_closed,
//     in which case ParseReply has already turned them into a block. The
//     others stay in their reports (HookReport.Failure, Outcome.Failures),
//     for the agent to show as it shows its own hooks' failures.
//  11. Shadow. A report marked Shadow (an entry in mode: shadow) is never
//     folded: the dispatcher moves what it asked for into its Would text
//     and leaves its Contribution nil.
//  12. First decides. On an event whose catalog row says FirstDecides
//     (pre_gateway_dispatch), the first contribution in config order that
//     carries a decision or a replacement text decides: its decision,
//     message and text are the outcome's, and the decisions and texts of
//     later contributions are ignored (Hermes takes the first recognised
//     plugin action there: skip, rewrite or allow).
//
// # Outcome schema
//
// The JSON form of Outcome is a public, versioned contract described by
// outcome.schema.json (embedded as OutcomeSchema). Hosts may rely on it.
package protocol
