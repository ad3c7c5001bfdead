package hookconfig

import (
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/consent"
)

// Two rules of one repository and event with one expression share one
// approval (keyed by the expression), which pins the decision, message,
// id and mode: rules differing in any of these cannot both be approved,
// and the loader says so of the second (validate fails on it). Rules
// that differ only where no approval looks (the matcher) share it
// rightly: no warning. The id was left out: two rules with other ids got
// no warning, approve said it approved both, and a fail_closed one was
// then "changed since approval", refusing calls its matcher does not
// even select.
func TestSharedRuleApprovals(t *testing.T) {
	const first = "    - rule: 'args.command contains \"rm\"'\n      matcher: terminal\n      id: a\n      decision: block\n      message: no rm\n"
	for _, c := range []struct {
		name, second string
		warns        bool
	}{
		{"same rule, another matcher", "    - rule: 'args.command contains \"rm\"'\n      id: a\n      decision: block\n      message: no rm\n", false},
		{"another id", "    - rule: 'args.command contains \"rm\"'\n      id: b\n      decision: block\n      message: no rm\n", true},
		{"no id", "    - rule: 'args.command contains \"rm\"'\n      decision: block\n      message: no rm\n", true},
		{"another decision", "    - rule: 'args.command contains \"rm\"'\n      id: a\n      decision: context\n      message: no rm\n", true},
		{"another message", "    - rule: 'args.command contains \"rm\"'\n      id: a\n      decision: block\n      message: no rm -rf\n", true},
		{"another mode", "    - rule: 'args.command contains \"rm\"'\n      id: a\n      decision: block\n      message: no rm\n      mode: shadow\n", true},
		{"another expression", "    - rule: 'args.command contains \"rm -rf\"'\n      id: b\n      decision: block\n      message: no rm\n", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg, err := ParseConfig([]byte("hooks:\n  pre_tool_call:\n"+first+c.second), "/p/.hermes/hooks.yaml")
			if err != nil || len(cfg.Entries) != 2 {
				t.Fatalf("%v, %d entries", err, len(cfg.Entries))
			}
			repo := &Config{}
			seen := map[string]*Entry{}
			for _, e := range cfg.Entries {
				e.Scope = consent.Scope{Project: "/p", Source: "/p/.hermes/hooks.yaml"}
				repo.sharedRuleApprovals(e, seen)
			}
			warned := len(repo.Warnings) == 1 && strings.Contains(repo.Warnings[0].String(), "hooks.pre_tool_call[1]") &&
				strings.Contains(repo.Warnings[0].String(), "only one of them can be approved at a time")
			if warned != c.warns || len(repo.Warnings) > 1 {
				t.Fatalf("warnings %v, want a warning of the second rule: %v", repo.Warnings, c.warns)
			}
		})
	}
}
