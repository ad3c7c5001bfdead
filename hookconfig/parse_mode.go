package hookconfig

import (
	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"
	"strings"

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
