package agents

// Open Plugins (open-plugins.com, the format Goose loads plugins in): a
// plugin's hooks/hooks.json holds hooks in Claude Code's grouped shape
// ({"hooks": {EVENT: [{"matcher", "hooks": [{"type": "command",
// "command"}]}]}}) under Claude Code's event names, and a host ignores the
// event names it does not know. Sources: docs/agent-protocols.md.

// openPluginEvents are the Open Plugins hook events: the core ones, then
// the extended ones.
var openPluginEvents = []string{
	"PreToolUse", "PostToolUse", "PostToolUseFailure", "SessionStart", "SessionEnd",
	"BeforeReadFile", "AfterFileEdit", "BeforeShellExecution", "AfterShellExecution",
	"UserPromptSubmit", "Stop", "SubagentStart", "SubagentStop",
}

// OpenPluginAgent is the agent an Open Plugins hook speaks as by default:
// Claude Code, whose hooks.json shape and event names the format took.
const OpenPluginAgent = "claude"

// OpenPlugin returns a with its hook file narrowed to the Open Plugins
// events it registers, the shape of a plugin's hooks/hooks.json whose
// entries run `hermes-hooks hook a.Name EVENT`; nil when a registers none
// of them or keeps its hooks in another shape.
func (a *Agent) OpenPlugin() *Agent {
	if a.HookFile.Layout != Grouped {
		return nil
	}
	mine := map[string]bool{}
	for _, ev := range a.HookFile.Events {
		mine[ev] = true
	}
	var events []string
	for _, ev := range openPluginEvents {
		if mine[ev] {
			events = append(events, ev)
		}
	}
	if len(events) == 0 {
		return nil
	}
	out := *a
	out.HookFile.Events = events
	out.HookFile.Init = nil
	return &out
}
