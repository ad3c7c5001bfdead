package hookconfig

import (
	"strings"
	"testing"
)

// skill_commands: false keeps a pre_tool_call entry off the skill shell
// commands that also run terminal guards (PreSkillShellCommand); a bad
// value keeps the guard on them, and the key elsewhere is named as doing
// nothing.
func TestParseSkillCommands(t *testing.T) {
	for _, tc := range []struct {
		event   string
		extra   []string
		own     bool
		warning string
	}{
		{"pre_tool_call", nil, false, ""},
		{"pre_tool_call", []string{"skill_commands: false"}, true, ""},
		{"pre_tool_call", []string{"skill_commands: no"}, true, ""},
		{"pre_tool_call", []string{"skill_commands: true"}, false, ""},
		{"pre_tool_call", []string{"skill_commands: ~"}, false, ""},
		{"PreToolUse", []string{"skill_commands: false"}, true, ""},
		{"intercept_tool_call", []string{"skill_commands: false"}, true, ""},
		{"pre_tool_call", []string{"skill_commands: 'false'"}, false, ".skill_commands must be true or false (got 'false'); using true"},
		{"pre_tool_call", []string{"skill_commands: 0"}, false, ".skill_commands must be true or false"},
		{"post_tool_call", []string{"skill_commands: false"}, false, ".skill_commands applies to pre_tool_call entries only"},
		{"pre_tool_call", []string{"skill_command: false"}, false, "unknown key 'skill_command' is ignored — did you mean 'skill_commands'?"},
	} {
		cfg, err := ParseConfig([]byte(hookYAML(tc.event, "./x.sh", tc.extra...)), "t.yaml")
		if err != nil {
			t.Fatal(err)
		}
		var warns []string
		for _, w := range cfg.Warnings {
			warns = append(warns, w.String())
		}
		joined := strings.Join(warns, "\n")
		e := cfg.Entries[0]
		if e.OwnEventOnly != tc.own || (tc.warning == "") != (len(warns) == 0) || !strings.Contains(joined, tc.warning) {
			t.Errorf("%s %v: OwnEventOnly=%v warnings=%q", tc.event, tc.extra, e.OwnEventOnly, joined)
		}
	}
}
