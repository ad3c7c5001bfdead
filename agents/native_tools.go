package agents

import "sync"

// The agents' own tool names that their decoding renames before any
// matcher sees them (run_shell_command is Bash, then terminal): a matcher
// of the Hermes config or of Claude Code's settings that names one never
// matches, since every agent's call reaches the dispatcher under Claude
// Code's or the canonical name. validate says so (hookconfig's advice).

// nativeTools lists, per agent (or host) whose decoding renames its tools,
// the table its decoding uses: the agent's name of a tool → the name its
// payload is given instead (Claude Code's, or the canonical one). Ordered:
// the first agent that renames a name is the one NativeTool names.
var nativeTools = sync.OnceValue(func() []nativeTable {
	cline := make(map[string]string, len(clineTools))
	for n, t := range clineTools {
		cline[n] = t.tool
	}
	title := func(name string) string {
		a, _ := Lookup(name)
		return a.Title
	}
	return []nativeTable{
		{title("gemini"), geminiTools()}, {title("qwen"), qwenTools()}, {title("kiro"), kiroTools()},
		{title("factory"), factoryTools()}, {title("copilot"), copilotTools()}, {title("cursor"), cursorTools()},
		{title("cline"), cline}, {vscodeHost(false).Title, vscodeTools},
	}
})

type nativeTable struct {
	title string
	names map[string]string
}

// NativeTool says which agent calls a tool name of its own that its
// decoding renames (title), and the name the call is given instead
// (renamed: Claude Code's or the canonical one); ok false when no agent
// renames name. A name some agent renames to itself is not renamed.
func NativeTool(name string) (title, renamed string, ok bool) {
	for _, t := range nativeTools() {
		if r, found := t.names[name]; found && r != name {
			return t.title, r, true
		}
	}
	return "", "", false
}
