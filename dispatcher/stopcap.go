package dispatcher

// stopBlockCap is how many times in a row stop hooks (pre_verify,
// subagent_stop) may keep the agent going; after that the agent may stop,
// as Claude Code enforces, so a hook that always says "continue" cannot
// wedge a session. A host that keeps this count itself
// (protocol.HostCapsStops in the called-by list: Claude Code, whose count
// a continuation that ran a tool resets and CLAUDE_CODE_STOP_HOOK_BLOCK_CAP
// sets) is left to it.
const stopBlockCap = 8
