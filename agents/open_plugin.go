package agents

// OpenPluginEvents are the hook events of the Open Plugins format (a
// plugin's hooks/hooks.json, which Goose loads): the core ones, then the
// extended ones. The format took Claude Code's hooks.json shape and event
// names, so its hooks speak as OpenPluginAgent by default. Sources:
// docs/agent-protocols.md.
var OpenPluginEvents = []string{
	"PreToolUse", "PostToolUse", "PostToolUseFailure", "SessionStart", "SessionEnd",
	"BeforeReadFile", "AfterFileEdit", "BeforeShellExecution", "AfterShellExecution",
	"UserPromptSubmit", "Stop", "SubagentStart", "SubagentStop",
}

// OpenPluginAgent is the agent an Open Plugins hook speaks as by default.
const OpenPluginAgent = "claude"
