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

// A rule of the user's under a ready-made rule's id is warned of at the
// user's line, the one they can change, whichever is read first: it was
// said at the built-in file's line, a file the user cannot edit.
func TestDuplicateBuiltinRuleIDWarnsAtTheUsersRule(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"config.yaml": "rules: [builtin:force-push]\nhooks:\n  pre_tool_call:\n    - {matcher: terminal, id: force-push/push-force, rule: 'args.command contains \"push -f\"', decision: block, message: no}\n",
	})
	cfg, err := Load(dir+"/config.yaml", LoadOptions{ConfigNamed: true})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, w := range cfg.Warnings {
		if !strings.Contains(w.Message, "id: force-push/push-force is also the id of another rule") {
			continue
		}
		found = true
		if w.File != dir+"/config.yaml" || !strings.Contains(w.Message, "of builtin:force-push") {
			t.Errorf("the clash is said at %s (%s): %s", w.File, w.Key, w.Message)
		}
	}
	if !found {
		t.Fatalf("no warning of the clash: %v", cfg.Warnings)
	}
}
