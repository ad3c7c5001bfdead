package hookconfig

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	agenthooks "github.com/hermes-hooks/hermes-hooks/agent-hooks"
)

// builtinCount is the number of rules the built-in rule file name holds.
func builtinCount(t *testing.T, name string) int {
	t.Helper()
	data, ok := agenthooks.Rule(name)
	if !ok {
		t.Fatalf("no built-in %s", name)
	}
	cfg, err := parseConfigWithin(data, BuiltinPrefix+name, 0, false, nil)
	if err != nil || len(cfg.Entries) == 0 {
		t.Fatalf("built-in %s: %v, %d entries", name, err, len(cfg.Entries))
	}
	return len(cfg.Entries)
}

// rules: [builtin:NAME] includes the binary's copy, in the user's config
// and in a rule file of theirs alike: its entries' Source is builtin:NAME
// (what every report shows), a name given twice (with .yaml or not) is
// read once, and no file is listed to watch or settle for it.
func TestBuiltinRuleInclude(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"home/config.yaml": "rules:\n  - builtin:force-push\n  - builtin:force-push.yaml\n  - team.yaml\n",
		"home/team.yaml":   "rules: [builtin:destructive-shell]\n" + ruleFileYAML,
	})
	cfg, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	bySource := map[string]int{}
	for _, e := range cfg.Entries {
		bySource[e.Source]++
		if e.Rule() == nil || e.NeedsApproval() {
			t.Errorf("entry from %s: rule %v, needs approval %v (the user's own)", e.Source, e.Rule(), e.NeedsApproval())
		}
	}
	if bySource["builtin:force-push"] != builtinCount(t, "force-push") || bySource["builtin:destructive-shell"] != builtinCount(t, "destructive-shell") ||
		bySource[filepath.Join(dir, "home", "team.yaml")] != 1 || len(bySource) != 3 {
		t.Fatalf("entries by source: %v", bySource)
	}
	if len(cfg.RuleFiles) != 1 || slices.ContainsFunc(cfg.SourceFiles(), IsBuiltin) {
		t.Errorf("rule files %v, source files %v: a built-in one is no file", cfg.RuleFiles, cfg.SourceFiles())
	}
	for _, w := range cfg.Warnings {
		t.Errorf("warning: %s", w.Message)
	}
}

// An unknown name is an error at the include's line, naming the built-in
// files and the closest one.
func TestBuiltinRuleUnknownName(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"config.yaml": "hooks: {}\nrules:\n  - builtin:force-push\n  - builtin:forcepush\n"})
	_, err := Load(filepath.Join(dir, "config.yaml"), LoadOptions{})
	var ce *ConfigError
	if !errors.As(err, &ce) || ce.Line != 4 || ce.Path != filepath.Join(dir, "config.yaml") {
		t.Fatalf("error %v (%#v), want one at config.yaml:4", err, ce)
	}
	for _, want := range []string{"builtin:forcepush", "did you mean builtin:force-push?", strings.Join(agenthooks.Rules(), ", "), "hermes-hooks rules"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%v: does not say %q", err, want)
		}
	}
}

// A builtin: name that is a path, empty, or anything but a built-in
// file's name is refused by its text: nothing on disk is read, even a
// file at exactly the path it names (relative to the config and to the
// working directory alike).
func TestBuiltinRuleNamesNoPath(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	// Files a resolved path would find: beside the config, in the
	// working directory, under the names taken literally.
	writeFiles(t, dir, map[string]string{
		"evil.yaml":          ruleFileYAML,
		"etc/passwd":         ruleFileYAML,
		"builtin:evil.yaml":  ruleFileYAML,
		"cfg/evil.yaml":      ruleFileYAML,
		"cfg/builtin:x.yaml": ruleFileYAML,
	})
	for _, name := range []string{
		`builtin:../../../etc/passwd`, `builtin:../etc/passwd`, `builtin:/etc/passwd`,
		// In YAML's double quotes below: a Windows path's \ escaped.
		`builtin:` + strings.ReplaceAll(filepath.Join(dir, "evil.yaml"), `\`, `\\`),
		`builtin:`, `builtin: `, `builtin:evil`, `builtin:evil.yaml`, `builtin:./force-push`, `builtin:force-push/`,
		`builtin:Force-Push`, `builtin:force-push.yml`, `builtin:\u202eforce-push`, `builtin:ｆｏｒｃｅ-push`, `builtin:force-push\0`,
		`builtin:..`, `builtin:.`, `builtin:~/x`, `builtin:x`,
	} {
		writeFiles(t, dir, map[string]string{"cfg/config.yaml": "rules:\n  - \"" + name + "\"\n"})
		cfg, err := Load(filepath.Join(dir, "cfg", "config.yaml"), LoadOptions{})
		var ce *ConfigError
		if !errors.As(err, &ce) || ce.Line != 2 || !strings.Contains(err.Error(), "the built-in ones are") {
			t.Errorf("%s: %v, want an error at line 2 that lists the built-in files", name, err)
			continue
		}
		if cfg != nil && len(cfg.Entries) > 0 || strings.ContainsAny(err.Error(), "\u202e\x00") {
			t.Errorf("%s: entries read, or the name shown raw: %v", name, err)
		}
	}
}

// A repository's builtin: include: its rules are the repository's (a
// Scope of the project, approved as its other rules are), and count
// against the entries its hooks file and rule files share.
func TestProjectBuiltinRules(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	writeFiles(t, dir, map[string]string{
		"repo/.git/HEAD":          "ref: refs/heads/main\n",
		"repo/.hermes/hooks.yaml": "rules: [builtin:destructive-shell, builtin:../../../etc/passwd]\n",
		"home/config.yaml":        "",
	})
	cfg, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Entries) != 0 || len(cfg.Unloaded) != 1 || !strings.Contains(cfg.Unloaded[0].Err.Error(), "not the name of a built-in rule file") {
		t.Fatalf("a path named as built-in: %d entries, unloaded %+v", len(cfg.Entries), cfg.Unloaded)
	}

	writeFiles(t, dir, map[string]string{"repo/.hermes/hooks.yaml": "rules: [builtin:destructive-shell]\n"})
	if cfg, err = Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo}); err != nil {
		t.Fatal(err)
	}
	if n := builtinCount(t, "destructive-shell"); len(cfg.Entries) != n || len(cfg.Unloaded) != 0 {
		t.Fatalf("entries %d (want %d), unloaded %+v", len(cfg.Entries), n, cfg.Unloaded)
	}
	for _, e := range cfg.Entries {
		if e.Source != "builtin:destructive-shell" || e.Scope.Project != repo || !e.NeedsApproval() {
			t.Errorf("entry from %s: scope %+v, needs approval %v", e.Source, e.Scope, e.NeedsApproval())
		}
	}

	// Its rules count with the hooks file's own against the cap.
	n := builtinCount(t, "destructive-shell")
	writeFiles(t, dir, map[string]string{"repo/.hermes/hooks.yaml": "rules: [builtin:destructive-shell]\n" + rulesYAML(MaxProjectEntries-n+1, "own")})
	if cfg, err = Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo}); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Unloaded) != 1 || !strings.Contains(cfg.Unloaded[0].Err.Error(), "builtin:destructive-shell: ") || !strings.Contains(cfg.Unloaded[0].Err.Error(), "hooks together") {
		t.Fatalf("one past the cap: unloaded %+v", cfg.Unloaded)
	}
}

// A built-in file counts as a file against MaxRuleFiles.
func TestBuiltinRulesCountAsFiles(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	rules := []string{"builtin:force-push"}
	for i := range MaxRuleFiles {
		name := "r" + strings.Repeat("x", i) + ".yaml"
		files[name] = ruleFileYAML
		if len(rules) < MaxRuleFiles {
			rules = append(rules, name)
		}
	}
	files["config.yaml"] = "rules: [" + strings.Join(rules, ", ") + "]\n"
	writeFiles(t, dir, files)
	if _, err := Load(filepath.Join(dir, "config.yaml"), LoadOptions{}); err != nil {
		t.Fatalf("%d includes, one built-in: %v", len(rules), err)
	}
	files["inner.yaml"] = "rules: [rxx.yaml, builtin:secrets-files]\n"
	files["config.yaml"] = "rules: [" + strings.Join(append(rules, "inner.yaml")[1:], ", ") + ", builtin:force-push]\n"
	writeFiles(t, dir, files)
	if _, err := Load(filepath.Join(dir, "config.yaml"), LoadOptions{}); err == nil || !strings.Contains(err.Error(), "more than 64 rule files") {
		t.Fatalf("past MaxRuleFiles with built-in ones: %v", err)
	}
}

// The listing of `hermes-hooks rules`: every built-in file, its title and
// its number of rules; ReadSource reads one by its Source.
func TestBuiltinRuleFiles(t *testing.T) {
	files, err := BuiltinRuleFiles()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range files {
		names = append(names, f.Name)
		if f.Title == "" || f.Rules != builtinCount(t, f.Name) {
			t.Errorf("%+v", f)
		}
		data, err := ReadSource(BuiltinPrefix + f.Name)
		if want, _ := agenthooks.Rule(f.Name); err != nil || string(data) != string(want) {
			t.Errorf("ReadSource(builtin:%s): %v", f.Name, err)
		}
	}
	if !slices.Equal(names, agenthooks.Rules()) || files[2].Title != "Force-push" {
		t.Errorf("listed %v; %+v", names, files)
	}
	if _, err := ReadSource("builtin:../x"); err == nil || errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadSource of a path as built-in: %v", err)
	}
}

// A config that does not parse still lists an unknown builtin: name with
// its other problems (validate shows them at once), looked up by its name
// alone.
func TestUnknownBuiltinListedWithOtherProblems(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"config.yaml": "rules: [builtin:force-push, builtin:nope, builtin:../x]\nhooks:\n  pre_tool_call:\n    - rule: 'true'\n"})
	_, err := Load(filepath.Join(dir, "config.yaml"), LoadOptions{})
	var ce *ConfigError
	if !errors.As(err, &ce) {
		t.Fatalf("%v", err)
	}
	var msgs []string
	for _, e := range append([]*ConfigError{ce}, ce.More...) {
		msgs = append(msgs, e.Error())
	}
	all := strings.Join(msgs, "\n")
	if !strings.Contains(all, "config.yaml:1: rules: builtin:nope: no built-in rule file is named nope") ||
		!strings.Contains(all, "config.yaml:1: rules: builtin:../x: ../x is not the name of a built-in rule file") ||
		strings.Contains(all, "builtin:force-push:") {
		t.Errorf("problems:\n%s", all)
	}
}

// A config of the user's whose file is named builtin:…, given by a
// relative --config, is still a file: its includes are read as paths.
func TestConfigNamedLikeBuiltin(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no colon in a Windows file name")
	}
	dir := t.TempDir()
	t.Chdir(dir)
	writeFiles(t, dir, map[string]string{"builtin:mine.yaml": "rules: [team.yaml]\n", "team.yaml": ruleFileYAML})
	cfg, err := Load("builtin:mine.yaml", LoadOptions{})
	if err != nil || len(cfg.Entries) != 1 {
		t.Fatalf("%v", err)
	}
}

// Every ready-made rule has an id, FILE/what-it-guards, unique across the
// five files: without one a rule is named by its file and line in log,
// replay, export and a refusal, and an edit above it renames it. Included
// together they draw no warning (two rules under one id would). Each id a
// file's comments name (the first rule, destructive-shell/rm-rf, …) is
// one of them, so renaming a rule cannot leave its old name in a header.
func TestBuiltinRuleIDs(t *testing.T) {
	names := agenthooks.Rules()
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"config.yaml": "rules: [builtin:" + strings.Join(names, ", builtin:") + "]\n"})
	cfg, err := Load(filepath.Join(dir, "config.yaml"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range cfg.Warnings {
		t.Errorf("warning: %s", w.Message)
	}
	ids := map[string]string{}
	for _, e := range cfg.Listed {
		r := e.Rule()
		if r == nil {
			t.Fatalf("%s: %s is no rule", e.Source, e.Text())
		}
		at, name := e.Source+":"+strconv.Itoa(r.Line), strings.TrimPrefix(e.Source, BuiltinPrefix)
		switch {
		case r.ID == "":
			t.Errorf("%s: no id", at)
		case !strings.HasPrefix(r.ID, name+"/") || !validRuleID(r.ID):
			t.Errorf("%s: id %q is not %s/what-it-guards", at, r.ID, name)
		case ids[r.ID] != "":
			t.Errorf("%s: id %q is also %s's", at, r.ID, ids[r.ID])
		default:
			ids[r.ID] = at
		}
	}
	want := 0
	for _, n := range names {
		want += builtinCount(t, n)
	}
	if len(ids) != want {
		t.Errorf("%d ids for %d rules", len(ids), want)
	}
	named := regexp.MustCompile(`\b(` + strings.Join(names, "|") + `)/[a-z0-9-]*[a-z0-9]`)
	for _, n := range names {
		data, _ := agenthooks.Rule(n)
		for i, line := range strings.Split(string(data), "\n") {
			if c := strings.TrimSpace(line); strings.HasPrefix(c, "#") {
				for _, id := range named.FindAllString(c, -1) {
					if ids[id] == "" {
						t.Errorf("%s.yaml:%d: names %s, no rule's id", n, i+1, id)
					}
				}
			}
		}
	}
}
