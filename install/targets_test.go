package install

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// Every plugin target is complete, found by its name, and never shadows an
// agent's name (install AGENT would then reach one or the other by order).
func TestPluginTargetsRegistry(t *testing.T) {
	names := map[string]bool{}
	for _, tg := range PluginTargets() {
		if tg.Name == "" || tg.path == nil || tg.holdsOwn == nil {
			t.Errorf("incomplete plugin target %+v", tg)
		}
		if names[tg.Name] {
			t.Errorf("plugin target %q listed twice", tg.Name)
		}
		names[tg.Name] = true
		if got, ok := LookupPluginTarget(tg.Name); !ok || got != tg {
			t.Errorf("LookupPluginTarget(%q) = %v, %v", tg.Name, got, ok)
		}
		if _, ok := agents.Lookup(tg.Name); ok {
			t.Errorf("plugin target %q is also an agent's name", tg.Name)
		}
	}
	if _, ok := LookupPluginTarget("claude"); ok {
		t.Error("an agent was found as a plugin target")
	}
	// The listing order is the registry's: help and errors print it.
	var order []string
	for _, tg := range PluginTargets() {
		order = append(order, tg.Name)
	}
	if want := []string{TargetHermes, TargetOpenCode, TargetOpenPlugin}; len(order) != 3 || order[0] != want[0] || order[1] != want[1] || order[2] != want[2] {
		t.Errorf("order %v, want %v", order, want)
	}
}
