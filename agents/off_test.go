package agents

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
)

// TestInstallRefusesAFileSwitchedOff: a hook file whose own settings make
// the agent run none of its hooks (Claude Code's, Qwen Code's and Copilot
// CLI's disableAllHooks; Gemini CLI's hooksConfig.enabled false, or its
// hooksConfig.disabled naming the line install writes) is refused, not
// installed into. A repository committed such a file and install said
// "now runs hermes-hooks for …" while the agent ran none of it, and
// doctor's probe (which runs each line itself) agreed.
func TestInstallRefusesAFileSwitchedOff(t *testing.T) {
	gemini, _ := Lookup("gemini")
	geminiLine := gemini.HookCommand("", gemini.HookFile.Events[0])
	for _, c := range []struct {
		agent, doc, want string
	}{
		{"claude", `{"disableAllHooks": true}`, `"disableAllHooks" is true`},
		{"qwen", `{"disableAllHooks": true, "hooks": {}}`, `"disableAllHooks" is true`},
		{"copilot", `{"version": 1, "disableAllHooks": true}`, `"disableAllHooks" is true`},
		{"gemini", `{"hooksConfig": {"enabled": false}}`, `"hooksConfig"."enabled" is false`},
		{"gemini", `{"hooksConfig": {"disabled": [` + string(pyjson.Encode(geminiLine, pyjson.Compact)) + `]}}`, `"hooksConfig"."disabled" names`},
	} {
		a, _ := Lookup(c.agent)
		v, err := pyjson.DecodeOrdered([]byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = a.Install(v.(pyjson.OrderedObject), func(ev string) string { return a.HookCommand("", ev) })
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Install into %s: err %v, want one saying %s", c.agent, c.doc, err, c.want)
		}
	}
	// Switched on, or set to something else, installs as before.
	for _, c := range []struct{ agent, doc string }{
		{"claude", `{"disableAllHooks": false}`},
		{"gemini", `{"hooksConfig": {"enabled": true, "disabled": ["other"]}}`},
	} {
		a, _ := Lookup(c.agent)
		v, _ := pyjson.DecodeOrdered([]byte(c.doc))
		if _, changed, err := a.Install(v.(pyjson.OrderedObject), func(ev string) string { return a.HookCommand("", ev) }); err != nil || !changed {
			t.Errorf("%s: Install into %s: changed %v, err %v", c.agent, c.doc, changed, err)
		}
	}
}
