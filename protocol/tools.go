package protocol

import (
	"maps"
	"sort"
	"strings"
	"sync"
)

// DefaultToolAliases maps Hermes tool names to their Claude Code twins. A
// Claude-dialect hook sees (and matches) the Claude name, a Hermes-dialect
// hook the Hermes name, whichever of the two the host used.
var DefaultToolAliases = map[string]string{
	"terminal":      "Bash",
	"read_file":     "Read",
	"write_file":    "Write",
	"patch":         "Edit",
	"web_search":    "WebSearch",
	"web_extract":   "WebFetch",
	"delegate_task": "Task",
}

// claudeLegacyNames are Claude Code's own renames: a Claude matcher written
// for either name matches both (Claude Code does the same).
var claudeLegacyNames = sync.OnceValue(func() map[string][]string {
	return map[string][]string{
		"Task":            {"Agent"},
		"Agent":           {"Task"},
		"TaskStop":        {"KillShell"},
		"KillShell":       {"TaskStop"},
		"TaskOutput":      {"AgentOutputTool", "BashOutputTool"},
		"AgentOutputTool": {"TaskOutput"},
		"BashOutputTool":  {"TaskOutput"},
	}
})

// claudeVariants are Claude Code tools that do what another Claude tool
// does, the one whose Hermes twin a Hermes matcher sees them as: a
// `patch|write_file` guard sees MultiEdit and NotebookEdit (they edit
// files), a `terminal` guard PowerShell (it runs a command), a
// `delegate_task` guard Agent (Task's newer name). Claude-dialect matchers
// keep Claude's own names (`Edit` matches Edit only, as in Claude Code),
// and the Hermes twin follows tool_aliases: overrides of the base.
var claudeVariants = sync.OnceValue(func() map[string]string {
	return map[string]string{"MultiEdit": "Edit", "NotebookEdit": "Edit", "PowerShell": "Bash", "Agent": "Task"}
})

// ClaudeVariants returns a copy of the Claude Code tools that do what
// another Claude tool does, each with that tool's name: what an agent
// that names tools its own way must map too (Copilot's runtime names).
func ClaudeVariants() map[string]string { return maps.Clone(claudeVariants()) }

// ToolTable translates tool names between the dialects. The zero value
// translates nothing; use NewToolTable.
type ToolTable struct {
	toClaude map[string]string
	toHermes map[string]string
}

// NewToolTable builds the table from DefaultToolAliases overlaid with
// overrides (Hermes name → Claude name, the config's tool_aliases:). An
// override with an empty Claude name removes the default pair.
func NewToolTable(overrides map[string]string) *ToolTable {
	t := &ToolTable{toClaude: map[string]string{}, toHermes: map[string]string{}}
	for h, c := range DefaultToolAliases {
		t.toClaude[h] = c
	}
	for h, c := range overrides {
		if c == "" {
			delete(t.toClaude, h)
			continue
		}
		t.toClaude[h] = c
	}
	// Reverse in sorted order so that, if two Hermes names share a Claude
	// name, the mapping back is deterministic (lexically first wins).
	keys := make([]string, 0, len(t.toClaude))
	for h := range t.toClaude {
		keys = append(keys, h)
	}
	sort.Sort(sort.Reverse(sort.StringSlice(keys)))
	for _, h := range keys {
		t.toHermes[t.toClaude[h]] = h
	}
	return t
}

// defaultTools is built at first use, not at every start.
var defaultTools = sync.OnceValue(func() *ToolTable { return NewToolTable(nil) })

// DefaultTools returns the table with the built-in pairs only.
func DefaultTools() *ToolTable { return defaultTools() }

// Claude returns the Claude Code name for a tool name given in either
// dialect (unknown names pass through unchanged).
func (t *ToolTable) Claude(name string) string {
	if t == nil {
		t = defaultTools()
	}
	if c, ok := t.toClaude[name]; ok {
		return c
	}
	return name
}

// Hermes returns the Hermes name for a tool name given in either dialect
// (unknown names pass through unchanged).
func (t *ToolTable) Hermes(name string) string {
	if t == nil {
		t = defaultTools()
	}
	if _, ok := t.toClaude[name]; ok {
		return name
	}
	if h, ok := t.toHermes[name]; ok {
		return h
	}
	if base, ok := claudeVariants()[name]; ok {
		if h, ok := t.toHermes[base]; ok {
			return h
		}
	}
	return name
}

// Pairs returns the Hermes→Claude pairs, for list --json and docs.
func (t *ToolTable) Pairs() map[string]string {
	if t == nil {
		t = defaultTools()
	}
	out := make(map[string]string, len(t.toClaude))
	for h, c := range t.toClaude {
		out[h] = c
	}
	return out
}

// ClaudeToolNames returns name and the legacy names Claude Code matches it
// under (Task↔Agent and friends).
func ClaudeToolNames(name string) []string {
	if alt, ok := claudeLegacyNames()[name]; ok {
		return append([]string{name}, alt...)
	}
	return []string{name}
}

// MCPToolNames returns an MCP tool's name in every spelling a matcher may
// be written in, name first, or nil when name is no MCP tool's. Claude Code
// (and Codex, Qwen Code, Factory Droid …) name a tool
// mcp__SERVER__TOOL; Hermes mcp_SERVER_TOOL, each part with every character
// but letters, digits and "_" made "_" (hermes-agent's tools/mcp_tool.py).
// A guard written in either spelling sees every agent's calls:
//
//   - mcp__github__create_issue also reads as mcp_github_create_issue;
//   - mcp_github_create_issue also reads as mcp__github__create_issue and
//     mcp__github_create__issue: Hermes' spelling does not say where the
//     server's name ends, so every split is a candidate. A Claude matcher
//     may then fit a split the server does not have (it fits more calls,
//     never fewer).
func MCPToolNames(name string) []string {
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		server, tool, ok := strings.Cut(rest, "__")
		if !ok || server == "" || tool == "" {
			return nil
		}
		return []string{name, "mcp_" + hermesMCPPart(server) + "_" + hermesMCPPart(tool)}
	}
	rest, ok := strings.CutPrefix(name, "mcp_")
	if !ok || rest == "" || strings.Contains(rest, "__") {
		return nil
	}
	out := []string{name}
	for i := 1; i < len(rest)-1; i++ {
		if rest[i] == '_' {
			out = append(out, "mcp__"+rest[:i]+"__"+rest[i+1:])
		}
	}
	if len(out) == 1 {
		return nil // mcp_X: no server and tool to tell apart
	}
	return out
}

// hermesMCPPart is a server's or a tool's name as Hermes spells it in a
// tool name: every character but ASCII letters, digits and "_" is "_".
func hermesMCPPart(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, s)
}
