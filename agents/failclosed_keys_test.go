package agents

import (
	"strings"
	"testing"
)

// failClosedKeys are the keys in which a hook file's handler asks to fail
// closed (hookconfig reads them in this order).
var failClosedKeys = map[string]any{"fail_closed": true, "failClosed": true, "onFailure": "block"}

// Every agent whose hook file's handlers are rewritten before they are
// read (Source.Handler) keeps a key asking to fail closed, or says it
// drops it: a guard's author who wrote one believes the guard refuses
// when it fails, and a key dropped in silence let that guard's call
// through (Gemini CLI's settings did, until it warned). By construction:
// a new agent's Handler is held to it without an edit here.
func TestHandlersNeverDropFailClosedSilently(t *testing.T) {
	for _, a := range All() {
		if a.Source.Handler == nil {
			continue // the handler is read as written: hookconfig reads the key
		}
		for _, event := range a.AgentEvents() {
			ev, ok := a.Canonical(event)
			if !ok || !ev.Gating() {
				continue
			}
			for key, value := range failClosedKeys {
				h := map[string]any{"type": "command", "command": "./guard.sh", key: value}
				var warns []string
				out := a.Source.Handler(event, h, func(s string) { warns = append(warns, s) })
				if out == nil {
					t.Errorf("%s %s: the handler %v was discarded", a.Name, event, h)
					continue
				}
				if _, kept := out[key]; kept {
					continue
				}
				if !strings.Contains(strings.Join(warns, "\n"), key) {
					t.Errorf("%s %s: the handler's %s was dropped without a word (warnings: %q)", a.Name, event, key, warns)
				}
			}
		}
	}
}
