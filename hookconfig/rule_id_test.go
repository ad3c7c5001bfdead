package hookconfig

import (
	"fmt"
	"strings"
	"testing"
)

// Two rules of a config under one id: read as one in the journal, log
// --hook and export, and nothing said so. The same rule under another
// matcher is one rule and may keep its id.
func TestDuplicateRuleIDWarns(t *testing.T) {
	for _, tc := range []struct {
		name, second string
		warn         bool
	}{
		{"another expression", "    - {matcher: terminal, id: team/no-rm, rule: 'args.command contains \"rmdir\"', decision: block, message: no rm}\n", true},
		{"another message", "    - {matcher: terminal, id: team/no-rm, rule: 'args.command contains \"rm\"', decision: block, message: other}\n", true},
		{"the same rule, another matcher", "    - {matcher: patch, id: team/no-rm, rule: 'args.command contains \"rm\"', decision: block, message: no rm}\n", false},
		{"another id", "    - {matcher: terminal, id: team/no-rmdir, rule: 'args.command contains \"rmdir\"', decision: block, message: no rm}\n", false},
	} {
		cfg, err := parseConfig([]byte("hooks:\n  pre_tool_call:\n    - {matcher: terminal, id: team/no-rm, rule: 'args.command contains \"rm\"', decision: block, message: no rm}\n"+tc.second), "/c.yaml", 0)
		if err != nil {
			t.Fatal(err)
		}
		cfg.finish()
		got := fmt.Sprint(cfg.Warnings)
		has := strings.Contains(got, "id: team/no-rm is also the id of another rule, hooks.pre_tool_call[0]")
		if has != tc.warn {
			t.Errorf("%s: warnings %s; want the duplicate id said: %v", tc.name, got, tc.warn)
		}
	}
}
