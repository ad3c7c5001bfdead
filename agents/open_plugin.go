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

// OpenPluginShape returns agent with its hook file narrowed to the Open
// Plugins events its install registers, in the format's order: the shape
// of a plugin's hooks/hooks.json whose entries run `hermes-hooks hook
// AGENT EVENT`; nil when it registers none of them or keeps its hooks in
// another shape than the format's (grouped).
func OpenPluginShape(agent *Agent) *Agent {
	if agent.HookFile.Layout != Grouped {
		return nil
	}
	mine := map[string]bool{}
	for _, ev := range agent.HookFile.Events {
		mine[ev] = true
	}
	var events []string
	for _, ev := range OpenPluginEvents {
		if mine[ev] {
			events = append(events, ev)
		}
	}
	if len(events) == 0 {
		return nil
	}
	out := *agent
	out.HookFile.Events = events
	out.HookFile.Init = nil
	return &out
}
