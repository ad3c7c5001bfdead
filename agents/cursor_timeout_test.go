package agents

import (
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// TestCursorEntriesSayTheirTimeout: Cursor's default hook timeout is not
// documented, and a hook it kills lets the call through (unless its entry
// says failClosed). install writes "timeout": 600 (seconds, Cursor's unit)
// on every entry, and the line carries --agent-timeout 600, so that `hook
// cursor` refuses a call whose guard hangs before Cursor gives up on it.
func TestCursorEntriesSayTheirTimeout(t *testing.T) {
	cursor, _ := Lookup("cursor")
	doc, changed, err := cursor.Install(pyjson.OrderedObject{}, func(ev string) string { return cursor.HookCommand("", ev) })
	if err != nil || !changed {
		t.Fatal(err, changed)
	}
	hooks, _ := doc.Get("hooks")
	for _, m := range hooks.(pyjson.OrderedObject) {
		for _, e := range m.Value.([]any) {
			h := e.(pyjson.OrderedObject)
			if v, _ := h.Get("timeout"); v != int64(600) {
				t.Errorf("%s: timeout %v, want 600", m.Key, v)
			}
			if c, _ := h.Get("command"); !strings.Contains(c.(string), AgentTimeoutFlag+" 600") {
				t.Errorf("%s: %v, want %s 600", m.Key, c, AgentTimeoutFlag)
			}
		}
	}
	if got := cursor.Timeout("preToolUse"); got != 600*time.Second {
		t.Errorf("Timeout %v", got)
	}
}
