package hookconfig

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pyyaml"
)

// mergingRuleFile is a rule file whose merge keys copy share of the
// merge-key budget (pyyaml.DefaultMaxMergedKeys), and one rule, id's.
func mergingRuleFile(share float64, id string) string {
	const wide = 500
	var b strings.Builder
	b.WriteString("x: &m {")
	for i := range wide {
		b.WriteString("k" + strconv.Itoa(i) + ": 0, ")
	}
	b.WriteString("}\ny:\n")
	b.WriteString(strings.Repeat("  - {<<: *m}\n", int(share*pyyaml.DefaultMaxMergedKeys)/wide))
	return b.String() + strings.ReplaceAll(ruleFileYAML, "message: m", "message: "+id)
}

// A repository's hooks file and the rule files it includes share one
// merge-key budget. Each file within a budget of its own let a repository
// nobody approved anything from make every dispatch copy 64 budgets' worth
// of keys (3 s per tool call) before consent was asked. Past the budget
// the project's hooks file is unloaded, as for one file past it, naming
// the file and why; the files after it are not read at all, and the
// user's own guard stays.
func TestProjectRuleFilesShareOneMergeBudget(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	files := map[string]string{
		"repo/.git/HEAD":   "ref: refs/heads/main\n",
		"home/config.yaml": strings.ReplaceAll(ruleFileYAML, "message: m", "message: mine"),
	}
	var names []string
	for i := range MaxRuleFiles {
		name := fmt.Sprintf("r/f%d.yaml", i)
		names = append(names, name)
		// 60% each: within its own budget, not two together.
		files["repo/.hermes/"+name] = mergingRuleFile(0.6, name)
	}
	files["repo/.hermes/hooks.yaml"] = "rules: [" + strings.Join(names, ", ") + "]\n"
	writeFiles(t, dir, files)
	cfg, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Unloaded) != 1 {
		t.Fatalf("unloaded %+v, %d entries: the rule files' merges together pass the budget", cfg.Unloaded, len(cfg.Entries))
	}
	msg := cfg.Unloaded[0].Err.Error()
	second := filepath.Join(repo, ".hermes", "r", "f1.yaml")
	if !strings.Contains(msg, second+":") || !strings.Contains(msg, "share one budget") || !strings.Contains(msg, "more than 250000 keys") {
		t.Errorf("the error names the file that passed the budget, and why: %s", msg)
	}
	if cfg.Unloaded[0].File != filepath.Join(repo, ".hermes", "hooks.yaml") {
		t.Errorf("unloaded %s, want the project's hooks file", cfg.Unloaded[0].File)
	}
	// The work is bounded: the files after the one that passed the budget
	// are never read (nor parsed, nor flattened).
	if len(cfg.RuleFiles) != 2 {
		t.Errorf("rule files read: %d, want 2 (%v)", len(cfg.RuleFiles), cfg.RuleFiles)
	}
	if len(cfg.Entries) != 1 || cfg.Entries[0].Rule() == nil || cfg.Entries[0].Scope.Project != "" {
		t.Errorf("the user's own rule must stay, alone: %d entries", len(cfg.Entries))
	}

	// The user's own config shares one with its rule files too (a team's
	// file may be included): past it the config does not load, naming it.
	writeFiles(t, dir, map[string]string{"home/config.yaml": "rules: [../repo/.hermes/r/f0.yaml, ../repo/.hermes/r/f1.yaml]\n"})
	_, err = Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{})
	if err == nil || !strings.Contains(err.Error(), second+":") || !strings.Contains(err.Error(), "share one budget") {
		t.Errorf("the user's config with two files: %v", err)
	}
	// One such file alone loads.
	writeFiles(t, dir, map[string]string{"home/config.yaml": "rules: [../repo/.hermes/r/f0.yaml]\n"})
	if cfg, err = Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{}); err != nil || len(cfg.Entries) != 1 {
		t.Errorf("one file within the budget: %v", err)
	}
}

// rulesYAML is a rule file of n rules, id's.
func rulesYAML(n int, id string) string {
	var b strings.Builder
	b.WriteString("hooks:\n  pre_tool_call:\n")
	for i := range n {
		fmt.Fprintf(&b, "    - {rule: 'args.command == \"%s-%d\"', decision: block, message: m}\n", id, i)
	}
	return b.String()
}

// A repository's hooks file and its rule files declare MaxProjectEntries
// hooks together, not each: 64 rule files of 256 rules each made every
// dispatch read and check 16,000 of a repository's entries (a consent
// check each), 3 times what its hooks file alone may cost. Past the cap
// the hooks file does not load, naming the rule file that passed it:
// dropping a rule file's rules with a warning would take its guards away.
func TestProjectRuleFilesShareOneEntryCap(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	files := map[string]string{
		"repo/.git/HEAD":        "ref: refs/heads/main\n",
		"home/config.yaml":      "",
		"repo/.hermes/own.yaml": "rules: [a.yaml]\n" + rulesYAML(MaxProjectEntries-10, "own"),
		"repo/.hermes/a.yaml":   rulesYAML(10, "a"),
	}
	var names []string
	for i := range MaxRuleFiles {
		name := fmt.Sprintf("r%d.yaml", i)
		names = append(names, name)
		files["repo/.hermes/"+name] = rulesYAML(5, name)
	}
	files["repo/.hermes/hooks.yaml"] = "rules: [" + strings.Join(names, ", ") + "]\n"
	writeFiles(t, dir, files)
	cfg, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo})
	if err != nil {
		t.Fatal(err)
	}
	// 51 files of 5 rules are 255; the 52nd passes the cap.
	if len(cfg.Unloaded) != 1 || len(cfg.Entries) != 0 {
		t.Fatalf("unloaded %+v, %d entries: 64 rule files of 5 rules pass the cap together", cfg.Unloaded, len(cfg.Entries))
	}
	if msg := cfg.Unloaded[0].Err.Error(); !strings.Contains(msg, "r51.yaml: ") || !strings.Contains(msg, "256 hooks together") || !strings.Contains(msg, "(255 before it)") {
		t.Errorf("the error names the file that passed the cap, and why: %s", msg)
	}
	if len(cfg.RuleFiles) != 52 {
		t.Errorf("rule files read: %d, want 52 (none after the one that passed the cap)", len(cfg.RuleFiles))
	}

	// The hooks file's own hooks count: 246 of its own and 10 included
	// are the cap; one more is past it.
	writeFiles(t, dir, map[string]string{"repo/.hermes/hooks.yaml": files["repo/.hermes/own.yaml"]})
	if cfg, err = Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo}); err != nil || len(cfg.Unloaded) != 0 || len(cfg.Entries) != MaxProjectEntries {
		t.Fatalf("at the cap: %v, unloaded %+v, %d entries", err, cfg.Unloaded, len(cfg.Entries))
	}
	writeFiles(t, dir, map[string]string{"repo/.hermes/a.yaml": rulesYAML(11, "a")})
	if cfg, err = Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo}); err != nil || len(cfg.Unloaded) != 1 ||
		!strings.Contains(cfg.Unloaded[0].Err.Error(), "a.yaml: ") {
		t.Fatalf("one past the cap: %v, unloaded %+v", err, cfg.Unloaded)
	}

	// The user's own rule files have no cap.
	writeFiles(t, dir, map[string]string{"home/config.yaml": "rules: [../repo/.hermes/own.yaml]\n", "repo/.hermes/a.yaml": rulesYAML(MaxProjectEntries, "a")})
	if cfg, err = Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{}); err != nil || len(cfg.Entries) != 2*MaxProjectEntries-10 {
		t.Fatalf("the user's own: %v, %d entries", err, len(cfg.Entries))
	}
}

// A repository's hooks file and its rule files hold MaxProjectFileBytes
// together: the rule files had one of their own beside the hooks file's,
// so each dispatch could parse twice what the hooks file alone may hold.
func TestProjectHooksFileSharesRuleFileBytes(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	pad := "#" + strings.Repeat("x", 1000) + "\n"
	padded := func(share int) string { return strings.Repeat(pad, MaxProjectFileBytes/len(pad)*share/100) }
	writeFiles(t, dir, map[string]string{
		"repo/.git/HEAD":          "ref: refs/heads/main\n",
		"repo/.hermes/hooks.yaml": "rules: [a.yaml]\n" + padded(60),
		"repo/.hermes/a.yaml":     padded(30) + ruleFileYAML,
		"home/config.yaml":        "",
	})
	cfg, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo})
	if err != nil || len(cfg.Entries) != 1 || len(cfg.Unloaded) != 0 {
		t.Fatalf("90%% of the budget: %v, entries %d, unloaded %+v", err, len(cfg.Entries), cfg.Unloaded)
	}
	writeFiles(t, dir, map[string]string{"repo/.hermes/a.yaml": padded(50) + ruleFileYAML})
	cfg, err = Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Entries) != 0 || len(cfg.Unloaded) != 1 || !strings.Contains(cfg.Unloaded[0].Err.Error(), "a.yaml: ") ||
		!strings.Contains(cfg.Unloaded[0].Err.Error(), "hooks file and the rule files it includes may hold 1048576 bytes together") {
		t.Fatalf("110%% of the budget: entries %d, unloaded %+v", len(cfg.Entries), cfg.Unloaded)
	}
}

// A repository's rule files show the warnings one file may, together,
// and make the did-you-mean searches one file may: each with bounds of its
// own, 64 rule files of misspelt events printed 6,000 warnings (7 MB) and
// made 16,000 searches at every dispatch (2 s), where one file of them all
// prints 100 and makes 256.
func TestProjectRuleFilesShareWarningBounds(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	const perFile = 120
	files := map[string]string{"repo/.git/HEAD": "ref: refs/heads/main\n", "home/config.yaml": ""}
	var names []string
	for i := range MaxRuleFiles {
		name := fmt.Sprintf("r/f%d.yaml", i)
		names = append(names, name)
		var b strings.Builder
		b.WriteString("hooks:\n")
		for j := range perFile {
			fmt.Fprintf(&b, "  pre_tool_cal%d_%d: []\n", i, j)
		}
		files["repo/.hermes/"+name] = b.String()
	}
	files["repo/.hermes/hooks.yaml"] = "rules: [" + strings.Join(names, ", ") + "]\n"
	writeFiles(t, dir, files)
	cfg, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo})
	if err != nil || len(cfg.Unloaded) != 0 {
		t.Fatalf("%v, unloaded %+v", err, cfg.Unloaded)
	}
	included, dropped := 0, ""
	for _, w := range cfg.Warnings {
		if strings.HasPrefix(w.File, filepath.Join(repo, ".hermes", "r")) {
			included++
		}
		if strings.Contains(w.Message, "more warnings about the rule files it includes are not shown") {
			dropped = w.Message
		}
	}
	if included > maxWarningsPerFile || !strings.HasPrefix(dropped, strconv.Itoa(MaxRuleFiles*perFile-maxWarningsPerFile)+" more") {
		t.Fatalf("%d warnings about the rule files, want %d and one counting the rest (%q)", included, maxWarningsPerFile, dropped)
	}

	hooks := filepath.Join(repo, ".hermes", "hooks.yaml")
	proj, err := parseConfig([]byte(files["repo/.hermes/hooks.yaml"]), hooks, MaxProjectEntries)
	if err != nil {
		t.Fatal(err)
	}
	if err := proj.loadRules(repo, 0); err != nil {
		t.Fatal(err)
	}
	if s := proj.shared().searched; s != maxSearchesPerFile {
		t.Errorf("%d did-you-mean searches for the load, want %d", s, maxSearchesPerFile)
	}
}
