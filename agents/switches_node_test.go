package agents

import (
	"strings"
	"testing"
)

// TestSwitchesReadAsNode: a settings file Node's JSON.parse reads (as
// Claude Code reads it) sets its switch however large its numbers and
// however deep its unknown keys nest: Go's encoding/json refused 1e400
// and nesting past 10,000, doctor read no switch, and Claude Code ran no
// hook (attacker review; e2e TestDoctorSwitches). Keys given twice: the
// last wins, as in JSON.parse.
func TestSwitchesReadAsNode(t *testing.T) {
	claude, _ := Lookup("claude")
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	for _, c := range []struct {
		name, data string
		off        bool
	}{
		{"huge number", `{"disableAllHooks": true, "e2eUnknownKey": 1e400}`, true},
		{"huge negative", `{"e2eUnknownKey": -1e99999, "disableAllHooks": true}`, true},
		{"tiny number", `{"disableAllHooks": true, "x": 1e-99999}`, true},
		{"long integer", `{"disableAllHooks": true, "x": ` + strings.Repeat("9", 5000) + `}`, true},
		{"deep array", `{"disableAllHooks": true, "x": ` + deep + `}`, true},
		{"deep before", `{"x": ` + deep + `, "disableAllHooks": true}`, true},
		{"very deep", `{"disableAllHooks": true, "x": ` + strings.Repeat(`{"a":`, 200000) + "1" + strings.Repeat("}", 200000) + `}`, true},
		{"duplicate last wins", `{"disableAllHooks": false, "disableAllHooks": true}`, true},
		{"duplicate last false", `{"disableAllHooks": true, "disableAllHooks": false}`, false},
		{"unclosed deep", `{"disableAllHooks": true, "x": ` + strings.Repeat("[", 10001) + `}`, false},
		{"trailing comma", `{"disableAllHooks": true,}`, false},
		{"comment", "// c\n{\"disableAllHooks\": true}", false},
		{"NaN", `{"disableAllHooks": true, "x": NaN}`, false},
		{"leading zero", `{"disableAllHooks": true, "x": 01}`, false},
	} {
		_, off := claude.Switches([][]byte{nil, []byte(c.data), nil})
		if off != c.off {
			t.Errorf("%s: switched off %v, want %v", c.name, off, c.off)
		}
	}
}
