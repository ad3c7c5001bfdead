package hookconfig

import "github.com/hermes-hooks/hermes-hooks/agents"

// parserOf reads hook files of the agent called name, as Load does.
func parserOf(name string) func(data []byte, path string, limit int) ([]*Entry, []Warning, error) {
	a, ok := agents.Lookup(name)
	if !ok {
		panic("no agent " + name)
	}
	return func(data []byte, path string, limit int) ([]*Entry, []Warning, error) {
		return parseAgentFile(a, data, path, limit)
	}
}

var (
	parseCodexHooks   = parserOf("codex")
	parseCopilotHooks = parserOf("copilot")
	parseCursorFile   = parserOf("cursor")
	parseGeminiFile   = parserOf("gemini")
	parseQwenFile     = parserOf("qwen")
	parseFactoryFile  = parserOf("factory")
)

// parseClaudeSettings reads a Claude Code settings file, as Load does.
func parseClaudeSettings(data []byte, path string) ([]*Entry, []Warning, error) {
	return parserOf("claude")(data, path, 0)
}
