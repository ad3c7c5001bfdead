package hookconfig

import (
	"gopkg.in/yaml.v3"

	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// dialectRule is which fail_closed hooks a walk for guards counts
// (failClosedAt): a hook is read in its own dialect: key's dialect, else
// in the default where it stands (byDefault, the event name's; Claude's
// among a matcher group's handlers), and counts when a hook in that
// dialect may fail closed there (hermes, claude: failClosedHonored). So
// an unreadable `[{command: x, fail_closed: true}]` under post_tool_call
// loads with the warning the same hook written readably gets, rather than
// refuse every gating call, while one saying dialect: claude still
// refuses, as the reader would have read it as a guard.
type dialectRule struct {
	hermes, claude bool
	byDefault      protocol.Dialect
}

// everyDialect counts every fail_closed hook when honored (a file whose
// hooks are all read in one dialect, or a walk where any counts), none
// when not.
func everyDialect(honored bool) dialectRule {
	return dialectRule{hermes: honored, claude: honored}
}

// yamlRule is the rule for a hook of the YAML config under the event
// name: an entry may say dialect: claude or hermes, else is the name's.
func yamlRule(ev *protocol.Event, name string) dialectRule {
	return dialectRule{hermes: failClosedHonored(ev, name, protocol.Hermes, nil),
		claude: failClosedHonored(ev, name, protocol.Claude, nil), byDefault: yamlDialect(name)}
}

// yamlDialect is the dialect an entry of the YAML config under the event
// name is read in when it says none: Claude Code's under a Claude Code
// name (PreToolUse), Hermes' under any other. The reader (parseHooks,
// loneGuards) and the walks for guards (yamlRule) ask here, so that a
// guard is counted in the dialect its hook is read in.
func yamlDialect(name string) protocol.Dialect {
	if protocol.IsClaudeName(name) {
		return protocol.Claude
	}
	return protocol.Hermes
}

// inGroup is r among a matcher group's handlers, read in Claude's dialect
// unless they say otherwise.
func (r dialectRule) inGroup() dialectRule {
	r.byDefault = protocol.Claude
	return r
}

// any reports whether any hook may count: else nothing needs walking
// (yamlHonored, for text, which names no dialect).
func (r dialectRule) any() bool { return r.hermes || r.claude }

// counts reports whether a fail_closed hook whose dialect: key is key
// ("": none, or not a dialect, as the reader then uses the default) counts
// where the default is def.
func (r dialectRule) counts(key string, def protocol.Dialect) bool {
	if r.hermes == r.claude {
		return r.hermes
	}
	if d, ok := protocol.ParseDialect(key); ok {
		def = d
	}
	if def == protocol.Claude {
		return r.claude
	}
	return r.hermes
}

// bit is the walks bit for an anchored node walked by r where the default
// is def: what the walk finds below it depends on those alone, so one
// walked before by the same found nothing, and is not walked again; one
// walked by another rule is (an anchor named under post_tool_call, where
// a Hermes hook is no guard, then under pre_tool_call, where it is).
func (r dialectRule) bit(def protocol.Dialect) walks {
	if r.hermes == r.claude {
		return walkedGuard
	}
	b := walkedGuardHermes
	if r.claude {
		b = walkedGuardClaude
	}
	if def == protocol.Claude {
		b <<= 1
	}
	return b
}

// nodeDialect is a YAML hook mapping's dialect: key ("": none or no
// scalar, as the reader reads it).
func nodeDialect(n *yaml.Node) string {
	d := pyyaml.MappingGet(n, "dialect")
	if d == nil {
		return ""
	}
	if d = pyyaml.Deref(d); d.Kind != yaml.ScalarNode {
		return ""
	}
	return d.Value
}

// isGroupNode reports a YAML matcher group: a mapping with hooks: and no
// command: (as the reader tells one), whose handlers are read in
// Claude's dialect unless they say otherwise.
func isGroupNode(n *yaml.Node) bool {
	return n.Kind == yaml.MappingNode && pyyaml.MappingGet(n, "hooks") != nil && pyyaml.MappingGet(n, "command") == nil
}

// isGroupMap is isGroupNode for a decoded JSON object.
func isGroupMap(m map[string]any) bool {
	_, hooks := m["hooks"]
	_, command := m["command"]
	return hooks && !command
}
