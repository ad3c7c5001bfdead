package hookconfig

import (
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"
	"github.com/hermes-hooks/hermes-hooks/protocol"

	"gopkg.in/yaml.v3"
)

// Entry modes (mode:).
const (
	// ModeEnforce is the default: the hook's reply counts.
	ModeEnforce = "enforce"
	// ModeShadow runs the hook and records what it would have decided
	// (HookReport.Shadow, Would; the journal) without folding its reply:
	// a new guard can be watched on real traffic before it may block.
	ModeShadow = "shadow"
)

// parseMode reads mode: enforce (the default) or shadow. Anything else is
// a warning and enforce: a typo must not quietly turn a guard off.
func (cfg *Config) parseMode(e *Entry, path string, n *yaml.Node) {
	m := pyyaml.MappingGet(n, "mode")
	if m == nil || (m.Kind == yaml.ScalarNode && m.Tag == "!!null") {
		return
	}
	v := strings.ToLower(strings.TrimSpace(m.Value))
	switch {
	case m.Kind == yaml.ScalarNode && v == ModeShadow:
		e.Shadow = true
	case m.Kind == yaml.ScalarNode && v == ModeEnforce:
	default:
		cfg.warn(path, ".mode must be 'enforce' or 'shadow' (got "+pyyaml.Repr(m)+"); using enforce")
	}
}

// parseSkillCommands reads skill_commands: true (the default) or false. An
// entry of an event that others also run (protocol.AlsoRunFor: a
// pre_tool_call terminal guard also sees a skill's shell command,
// PreSkillShellCommand) runs only on its own event with false. A bad value
// is a warning and the default: a typo must not take a guard off
// commands it was seeing; the key on another event's entry is a warning
// too, as it changes nothing there.
func (cfg *Config) parseSkillCommands(e *Entry, path string, n *yaml.Node) {
	v := pyyaml.MappingGet(n, "skill_commands")
	if v == nil || (v.Kind == yaml.ScalarNode && v.Tag == "!!null") {
		return
	}
	b, ok := pyyaml.Bool(v)
	switch {
	case !ok:
		cfg.warn(path, ".skill_commands must be true or false (got "+pyyaml.Repr(v)+"); using true")
	case len(protocol.AlsoRunFor(e.Event)) == 0:
		cfg.warn(path, ".skill_commands applies to pre_tool_call entries only (the guards a skill's shell command also runs); ignored on "+e.DeclaredAs)
	default:
		e.OwnEventOnly = !b
	}
}
