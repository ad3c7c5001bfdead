package hookconfig

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBuiltinFilesReadClean: every built-in rule file, examples and all,
// reads without a warning, so a load that skips their examples
// (SkipBuiltinExamples: hook, dispatch) hides nothing from the user.
// Skipping leaves the same entries, none of a built-in file with an
// example, in the config's rules and in a repository's alike, and reads
// the examples of the user's own rule file as before.
func TestBuiltinFilesReadClean(t *testing.T) {
	dir := t.TempDir()
	var all []string
	for _, n := range BuiltinRuleNames() {
		all = append(all, BuiltinPrefix+n)
	}
	mine := "hooks:\n  pre_tool_call:\n    - matcher: terminal\n      rule: 'args.command contains \"zz\"'\n      decision: block\n      message: no\n" +
		"      examples:\n        - {args: {command: zz}, expect: block}\n"
	writeFiles(t, dir, map[string]string{
		"home/config.yaml":        "rules: [" + strings.Join(all, ", ") + ", mine.yaml]\nhooks: {}\n",
		"home/mine.yaml":          mine,
		"repo/.git/HEAD":          "ref: refs/heads/main\n",
		"repo/.hermes/hooks.yaml": "rules: [builtin:force-push]\nhooks: {}\n",
	})
	load := func(skip bool) *Config {
		cfg, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: filepath.Join(dir, "repo"), SkipBuiltinExamples: skip})
		if err != nil {
			t.Fatal(err)
		}
		for _, w := range cfg.Warnings {
			t.Errorf("skip %v: warning: %s", skip, w.Message)
		}
		return cfg
	}
	read, skipped := load(false), load(true)
	if len(read.Entries) != len(skipped.Entries) {
		t.Fatalf("%d entries read, %d with the examples skipped", len(read.Entries), len(skipped.Entries))
	}
	withExamples, fromRepo := 0, 0
	for i, e := range skipped.Entries {
		r := read.Entries[i]
		if e.Source != r.Source || e.Rule() == nil || r.Rule() == nil || e.Rule().Source != r.Rule().Source {
			t.Fatalf("entry %d: %s vs %s", i, e.Source, r.Source)
		}
		if e.Scope.Project != "" {
			fromRepo++
		}
		switch {
		case IsBuiltin(e.Source) && len(e.Examples) != 0:
			t.Errorf("%s: %d examples read, skipping them", e.Source, len(e.Examples))
		case !IsBuiltin(e.Source) && len(e.Examples) != len(r.Examples):
			t.Errorf("%s: %d examples, %d without skipping", e.Source, len(e.Examples), len(r.Examples))
		}
		if len(r.Examples) > 0 {
			withExamples++
		}
	}
	if withExamples < len(all) || fromRepo == 0 {
		t.Errorf("%d entries with examples read, %d from the repository: the test reads too little", withExamples, fromRepo)
	}
}
