package dispatcher

// stopBlockCap is how many times in a row stop hooks (pre_verify,
// subagent_stop) may keep the agent going; after that the agent may stop,
// as Claude Code enforces, so a hook that always says "continue" cannot
// wedge a session.
const stopBlockCap = 8
