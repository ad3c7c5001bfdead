package main

import (
	"testing"

	"github.com/hermes-hooks/hermes-hooks/install"
)

// A plugin target is one row in install (its files) and one here (the verb
// that writes them): neither may exist without the other.
func TestPluginTargetVerbsMatchTargets(t *testing.T) {
	seen := map[string]bool{}
	for _, tg := range install.PluginTargets() {
		seen[tg.Name] = true
		if v, ok := pluginTargetVerbs[tg.Name]; !ok || v.run == nil {
			t.Errorf("install target %q has no verb row (pluginTargetVerbs)", tg.Name)
		}
	}
	for name := range pluginTargetVerbs {
		if !seen[name] {
			t.Errorf("verb row %q names no install.PluginTarget", name)
		}
	}
}
