package hookconfig

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const ruleFileYAML = "hooks:\n  pre_tool_call:\n    - rule: 'true'\n      decision: block\n      message: m\n"

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A repository's rule files are its own: their rules get the project's
// scope (approved per project), and a rule file reached through a
// symbolic link out of the repository is never read: the project's hooks
// file is then unloaded, so its guards refuse rather than vanish.
func TestProjectRuleFiles(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	writeFiles(t, dir, map[string]string{
		"repo/.git/HEAD":            "ref: refs/heads/main\n",
		"repo/.hermes/hooks.yaml":   "rules: [rules/a.yaml, rules/a.yaml]\n",
		"repo/.hermes/rules/a.yaml": "rules: [b.yaml]\n" + ruleFileYAML,
		"repo/.hermes/rules/b.yaml": strings.ReplaceAll(ruleFileYAML, "'true'", "'false'"),
		"outside.yaml":              ruleFileYAML,
		"other/.git/HEAD":           "ref: refs/heads/main\n",
		"other/.hermes/hooks.yaml":  "rules: [link.yaml]\n",
		"other/.hermes/placeholder": "",
		"home/config.yaml":          "",
	})
	cfg, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Entries) != 2 || len(cfg.RuleFiles) != 2 {
		t.Fatalf("entries %d, rule files %v (a file included twice is read once)", len(cfg.Entries), cfg.RuleFiles)
	}
	for _, e := range cfg.Entries {
		if e.Rule() == nil || e.Scope.Project != repo || !e.NeedsApproval() || !strings.HasPrefix(e.Source, filepath.Join(repo, ".hermes", "rules")) {
			t.Errorf("entry %+v: scope %+v, source %s", e.Rule(), e.Scope, e.Source)
		}
	}

	if runtime.GOOS == "windows" {
		return // Wine makes a link that cannot be opened: the check is the Unix one
	}
	if err := os.Symlink(filepath.Join(dir, "outside.yaml"), filepath.Join(dir, "other", ".hermes", "link.yaml")); err != nil {
		t.Fatal(err)
	}
	cfg, err = Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: filepath.Join(dir, "other")})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Entries) != 0 || len(cfg.Unloaded) != 1 || !strings.Contains(cfg.Unloaded[0].Err.Error(), "outside the project") {
		t.Fatalf("a rule file linked out of the repository: entries %d, unloaded %+v", len(cfg.Entries), cfg.Unloaded)
	}
}

// The user's own rule files may be anywhere; a nested include is relative
// to the file that names it; hooks_auto_accept in a rule file approves
// nothing.
func TestUserRuleFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"home/config.yaml":   "rules: ../shared/team.yaml\n",
		"shared/team.yaml":   "hooks_auto_accept: true\nrules: [more/x.yaml]\n" + ruleFileYAML,
		"shared/more/x.yaml": ruleFileYAML,
	})
	cfg, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Listed) != 2 || cfg.AutoAccept || cfg.Entries[0].NeedsApproval() {
		t.Fatalf("listed %d, auto-accept %v", len(cfg.Listed), cfg.AutoAccept)
	}
	found := false
	for _, w := range cfg.Warnings {
		found = found || w.Key == "hooks_auto_accept" && strings.Contains(w.Message, "is not read in a rule file (only hooks: and rules: are)")
	}
	if !found {
		t.Errorf("no warning for the rule file's other settings: %+v", cfg.Warnings)
	}
}

// A repository's rule files share one budget of MaxProjectFileBytes: each
// may be up to that size, but 64 of them would make every dispatch parse
// 64 MiB of the repository's YAML (seconds per tool call, measured at
// 19.5 s for a one-shot dispatch), where its hooks file alone is held to
// one. Past the budget the project's hooks file is unloaded, naming it.
func TestProjectRuleFilesShareOneBudget(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	pad := "#" + strings.Repeat("x", 1000) + "\n"
	// A third of the budget each, with a rule of its own.
	big := func(id string) string {
		return strings.Repeat(pad, MaxProjectFileBytes/len(pad)/3) + strings.ReplaceAll(ruleFileYAML, "message: m", "message: "+id)
	}
	writeFiles(t, dir, map[string]string{
		"repo/.git/HEAD":          "ref: refs/heads/main\n",
		"repo/.hermes/hooks.yaml": "rules: [a.yaml, b.yaml]\n",
		"repo/.hermes/a.yaml":     big("a"),
		"repo/.hermes/b.yaml":     big("b"),
		"home/config.yaml":        "",
	})
	cfg, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo})
	if err != nil || len(cfg.Entries) != 2 || len(cfg.Unloaded) != 0 {
		t.Fatalf("two thirds of the budget: %v, entries %d, unloaded %+v", err, len(cfg.Entries), cfg.Unloaded)
	}
	writeFiles(t, dir, map[string]string{
		"repo/.hermes/hooks.yaml": "rules: [a.yaml, b.yaml, c.yaml, d.yaml]\n",
		"repo/.hermes/c.yaml":     big("c"),
		"repo/.hermes/d.yaml":     big("d"),
	})
	cfg, err = Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Entries) != 0 || len(cfg.Unloaded) != 1 || !strings.Contains(cfg.Unloaded[0].Err.Error(), "d.yaml") ||
		!strings.Contains(cfg.Unloaded[0].Err.Error(), "together") {
		t.Fatalf("past the budget: entries %d, unloaded %+v", len(cfg.Entries), cfg.Unloaded)
	}
	// The user's own rule files have no shared budget.
	writeFiles(t, dir, map[string]string{"home/config.yaml": "rules: [../repo/.hermes/a.yaml, ../repo/.hermes/b.yaml, ../repo/.hermes/c.yaml, ../repo/.hermes/d.yaml]\n"})
	cfg, err = Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{})
	if err != nil || len(cfg.Entries) != 4 {
		t.Fatalf("the user's own: %v, %+v", err, cfg)
	}
}

// rules: names at most MaxRuleFiles files: more can only be repeats, and a
// repository's hooks file repeating one name a hundred thousand times made
// every dispatch check each again (1 s per dispatch).
func TestRuleIncludesBounded(t *testing.T) {
	names := strings.Repeat("a.yaml, ", MaxRuleFiles) + "a.yaml"
	_, err := ParseConfig([]byte("hooks: {}\nrules: ["+names+"]\n"), "/c.yaml")
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Line != 2 || !strings.Contains(err.Error(), "more than 64 rule files") {
		t.Fatalf("%d names: %v", MaxRuleFiles+1, err)
	}
	if _, err := ParseConfig([]byte("rules: ["+strings.Repeat("a.yaml, ", MaxRuleFiles-1)+"a.yaml]\n"), "/c.yaml"); err != nil {
		t.Fatalf("%d names: %v", MaxRuleFiles, err)
	}
}

// FuzzRuleFile: no rule file may panic the loader, and what it refuses is
// a ConfigError naming a file.
func FuzzRuleFile(f *testing.F) {
	for _, s := range []string{
		ruleFileYAML,
		"hooks:\n  pre_tool_call:\n    - {rule: 'true', decision: block, message: m}\n    - command: ./g.sh\n",
		"journal: false\nexport: {otlp: {endpoint: x}}\nhooks_auto_accept: true\n" + ruleFileYAML,
		"rules: [x.yaml]\n", "rules: [r.yaml]\n", "hooks:\n  pre_tool_call:\n    - rule: 'true'\n      rule: 'false'\n",
		"hooks: {pre_tool_call: &a [*a]}\n",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	main := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(main, []byte("rules: [r.yaml]\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, "r.yaml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(main, LoadOptions{})
		checkNoPanic(t, err)
		var ce *ConfigError
		if err != nil && (!errors.As(err, &ce) || ce.Path == "") {
			t.Fatalf("%T %v", err, err)
		}
	})
}

// Every setting a rule file holds besides hooks: and rules: is named as
// ignored, whatever its value: what a rule file says is read or it is
// said not to be.
func TestRuleFileSettingsIgnored(t *testing.T) {
	for key, val := range map[string]string{
		"hooks_auto_accept":  "false",
		"hooks_auto_accept ": "true",
		"claude_settings":    "[]",
		"journal":            "{path: j.jsonl}",
		"tool_aliases":       "{}",
		"export":             "{file: e.jsonl}",
	} {
		dir := t.TempDir()
		writeFiles(t, dir, map[string]string{
			"home/config.yaml": "rules: team.yaml\n",
			"home/team.yaml":   strings.TrimSpace(key) + ": " + val + "\n" + ruleFileYAML,
		})
		cfg, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, w := range cfg.Warnings {
			if w.Key == strings.TrimSpace(key) && strings.Contains(w.Message, "is not read in a rule file") {
				n++
			}
		}
		if n != 1 {
			t.Errorf("%s: %s: warned %d times, want once: %+v", strings.TrimSpace(key), val, n, cfg.Warnings)
		}
	}
}
