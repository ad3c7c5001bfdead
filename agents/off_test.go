package agents

import (
	"os"
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

// TestOwnSwitchReadAsSwitchFiles: the hook file's own switch is read the
// one way the agent's switch files are (geminiEnabledValues,
// qwenDisableValues), strings expanded in the environment. geminiOff read
// "false" as true and expanded nothing, so doctor said fires and install
// "now runs" over a line Gemini CLI skipped (attacker review of h-switch2).
func TestOwnSwitchReadAsSwitchFiles(t *testing.T) {
	t.Setenv("HERMES_TEST_OFF", "false")
	t.Setenv("HERMES_TEST_EMPTY", "")
	t.Setenv("HERMES_TEST_EV", "BeforeTool")
	gemini, _ := Lookup("gemini")
	line := gemini.HookCommand("", "BeforeTool")
	for _, c := range []struct {
		agent, doc string
		off        bool
	}{
		{"gemini", `{"hooksConfig": {"enabled": "false"}}`, true},
		{"gemini", `{"hooksConfig": {"enabled": "FALSE"}}`, true},
		{"gemini", `{"hooksConfig": {"enabled": "${NO_SUCH_VAR_X:-}"}}`, true},
		{"gemini", `{"hooksConfig": {"enabled": "$HERMES_TEST_OFF"}}`, true},
		{"gemini", `{"hooksConfig": {"enabled": "${NO_SUCH_VAR_X:-true}"}}`, false},
		{"gemini", `{"hooksConfig": {"enabled": 0.0}}`, true},
		{"gemini", `{"hooksConfig": {"enabled": 1e400}}`, false},
		{"gemini", `{"hooksConfig": {"enabled": null}}`, false},
		{"gemini", `{"hooksConfig": {"enabled": "no"}}`, false},
		{"gemini", `{"hooksConfig": {"disabled": [` + string(pyjson.Encode(strings.Replace(line, "BeforeTool", "$HERMES_TEST_EV", 1), pyjson.Compact)) + `]}}`, true},
		{"qwen", `{"disableAllHooks": "$HERMES_TEST_EMPTY"}`, false},
		{"qwen", `{"disableAllHooks": "${NO_SUCH_VAR_X:-}"}`, true},
		{"qwen", `{"disableAllHooks": 0}`, false},
		{"qwen", `{"disableAllHooks": 2}`, true},
	} {
		a, _ := Lookup(c.agent)
		v, err := pyjson.DecodeOrdered([]byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		if why := a.OffIn(v.(pyjson.OrderedObject), os.LookupEnv)(a.HookCommand("", "BeforeTool")); (why != "") != c.off {
			t.Errorf("%s %s: off %q, want off %v", c.agent, c.doc, why, c.off)
		}
	}
}
