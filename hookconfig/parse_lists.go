package hookconfig

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"
)

// The config's lists and maps beside hooks: tool_aliases and the agents'
// hook files.

func (cfg *Config) parseToolAliases(n *yaml.Node) {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return
	}
	if n.Kind != yaml.MappingNode {
		cfg.warn("tool_aliases", "must be a mapping of Hermes tool names to Claude tool names; got "+pyyaml.Type(n)+"; ignoring")
		return
	}
	cfg.keysOnce(n, "tool_aliases", nil)
	cfg.ToolAliases = map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if v.Kind != yaml.ScalarNode || (v.Tag != "!!str" && v.Tag != "!!null") {
			cfg.warn("tool_aliases."+k.Value, "must be a string (the Claude tool name); ignoring")
			continue
		}
		name := v.Value
		if v.Tag == "!!null" {
			name = ""
		}
		cfg.ToolAliases[k.Value] = strings.TrimSpace(name)
	}
}

// parseFileList reads a list of agent hook files (claude_settings …): a
// path or a list of paths.
func (cfg *Config) parseFileList(k agentFileKind, n *yaml.Node) {
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!null":
	case n.Kind == yaml.ScalarNode && n.Tag == "!!str":
		cfg.addFile(k.agent.Name, n.Value)
	case n.Kind == yaml.SequenceNode:
		for i, item := range n.Content {
			if item.Kind != yaml.ScalarNode || item.Tag != "!!str" || strings.TrimSpace(item.Value) == "" {
				cfg.warn(fmt.Sprintf("%s[%d]", k.key, i), "must be a file path; ignoring")
				continue
			}
			cfg.addFile(k.agent.Name, strings.TrimSpace(item.Value))
		}
	default:
		cfg.warn(k.key, "must be a list of "+k.agent.Source.What+" file paths; got "+pyyaml.Type(n)+"; ignoring")
	}
}
