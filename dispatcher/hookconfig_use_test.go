package dispatcher

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/pattern"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Tests of configs as the dispatcher runs them (moved with hookconfig).

// TestCursorEntrySelection: a Cursor entry fires only for the firings its
// Cursor event stands for, and its matcher reads Cursor's tool names.
func TestCursorEntrySelection(t *testing.T) {
	entries, _, err := parseCursorFile([]byte(`{"hooks":{
		"beforeShellExecution":[{"command":"shell"}],
		"beforeReadFile":[{"command":"read"}],
		"preToolUse":[{"command":"any"},{"command":"shell-or-read","matcher":"Shell|Read"}]}}`), "/x/hooks.json", 0)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &hookconfig.Config{Entries: entries, Tools: protocol.DefaultTools()}

	d, err := New(cfg, Options{Gate: AllowAll})
	if err != nil {
		t.Fatal(err)
	}
	pre, _ := protocol.Lookup("pre_tool_call")
	for tool, want := range map[string]string{
		"terminal":   "shell,any,shell-or-read",
		"Bash":       "shell,any,shell-or-read",
		"read_file":  "read,any,shell-or-read",
		"web_search": "any",
	} {
		var got []string
		for _, e := range d.selectFor(pre, map[string]any{"tool_name": tool}) {
			got = append(got, e.Command)
		}
		if g := strings.Join(got, ","); g != want {
			t.Errorf("%s selects %s, want %s", tool, g, want)
		}
	}
}

func TestClaudeSettingsFile(t *testing.T) {
	dir := t.TempDir()
	proj := filepath.Join(dir, "proj")
	settings := filepath.Join(proj, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, settings, `{"hooks":{
	  "PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/guard.sh","timeout":5},{"type":"http","url":"https://x"}]}],
	  "UserPromptSubmit":[{"hooks":[{"type":"command","command":"echo hi"}]}],
	  "Bogus":[]
	}}`)
	local := filepath.Join(proj, ".claude", "settings.local.json")
	writeFile(t, local, `{"hooks":{"UserPromptSubmit":[{"hooks":[{"type":"command","command":"echo hi"}]}]}}`)
	cfgPath := filepath.Join(dir, "config.yaml")
	writeFile(t, cfgPath, "claude_settings:\n  - proj/.claude/settings.json\n  - proj/.claude/missing.json\n")
	cfg, err := hookconfig.Load(cfgPath, hookconfig.LoadOptions{AgentFiles: hookconfig.AgentFiles{"claude": []string{local}}})
	if err != nil {
		t.Fatal(err)
	}
	w := warningsText(cfg)
	for _, s := range []string{"unknown hook event 'Bogus'", "missing.json: no such file"} {
		if !strings.Contains(w, s) {
			t.Errorf("warnings %q lack %q", w, s)
		}
	}
	// The identical UserPromptSubmit command of the project's two files
	// registers twice: each file's hooks are approved apart, so neither
	// copy stands for the other before the gate, which runs them once when
	// it lets both run one process (claude_dedup_clone_changed.txtar). The
	// http handler is an entry of its own (issue 13).
	if len(cfg.Entries) != 4 || cfg.Entries[1].Spec.Kind() != hookconfig.TypeHTTP || cfg.Entries[1].Text() != "https://x" {
		t.Fatalf("want 4 entries (command, http, prompt, its copy), got %d", len(cfg.Entries))
	}
	if len(cfg.AgentFiles["claude"]) != 2 || cfg.AgentFiles["claude"][0] != settings || cfg.AgentFiles["claude"][1] != local {
		t.Fatalf("ClaudeSettings %v: want the file named in the config, then the flag's", cfg.AgentFiles["claude"])
	}
	g := cfg.Entries[0]
	if g.Dialect != protocol.Claude || g.Timeout != 5*time.Second || g.ProjectDir != proj || g.Source != settings {
		t.Fatalf("guard entry %+v", g)
	}
	d, err := New(cfg, Options{Gate: AllowAll})
	if err != nil {
		t.Fatal(err)
	}
	ev, _ := protocol.Lookup("pre_llm_call")
	if sel := d.selectFor(ev, map[string]any{}); len(sel) != 2 {
		t.Fatalf("copies from two files are both selected, for the gate to run once; selected %d", len(sel))
	}
	// A settings file named on the command line must exist.
	if _, err := hookconfig.Load(cfgPath, hookconfig.LoadOptions{AgentFiles: hookconfig.AgentFiles{"claude": []string{filepath.Join(dir, "nope.json")}}}); err == nil {
		t.Fatal("missing --claude-settings file must be an error")
	}
}

// Claude's dedup is per firing: the same command under two matcher groups
// that both match runs once.
func TestClaudeDedupPerFiring(t *testing.T) {
	entries, _, err := parseClaudeSettings([]byte(`{"hooks":{"PreToolUse":[
	  {"matcher":"Bash","hooks":[{"type":"command","command":"guard.sh"}]},
	  {"matcher":"Ba.*","hooks":[{"type":"command","command":"guard.sh"}]}]}}`), "s.json")
	if err != nil || len(entries) != 2 {
		t.Fatalf("entries %d err %v", len(entries), err)
	}
	cfg := &hookconfig.Config{Entries: entries, Tools: protocol.DefaultTools()}

	d, _ := New(cfg, Options{Gate: AllowAll})
	ev, _ := protocol.Lookup("PreToolUse")
	if n := len(d.selectFor(ev, map[string]any{"tool_name": "Bash"})); n != 1 {
		t.Fatalf("selected %d, want 1", n)
	}
	if n := len(d.selectFor(ev, map[string]any{"tool_name": "Bashful"})); n != 1 {
		t.Fatalf("regex group alone: selected %d, want 1", n)
	}
}

// A firing that a backtracking matcher rejects allocates nothing through a
// whole dispatch (hookconfig's TestBacktrackingNoMatchAllocatesNothing
// checks the matchers alone).
func TestBacktrackingNoMatchDispatchAllocatesNothing(t *testing.T) {
	fields := map[string]any{"tool_name": "terminal"}
	yml := "hooks:\n  pre_tool_call:\n    - command: /bin/h1\n      matcher: '(?!terminal).*'\n  PreToolUse:\n    - command: /bin/h2\n      matcher: 'Ba(?=x)'\n"
	d := dispatcherFor(t, yml)
	ctx := context.Background()
	allocs := testing.AllocsPerRun(200, func() {
		if _, err := d.Dispatch(ctx, "pre_tool_call", fields); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Fatalf("no-match dispatch through regexp2 matchers allocated %v times", allocs)
	}
}

// A copy whose matcher could not tell (the backtracking engine ran out of
// time: it fails as a hook that cannot start) does not stand for one whose
// matcher selected the firing, whichever comes first: the one that runs is
// the one that can.
func TestClaudeDedupUndecidedCopy(t *testing.T) {
	old, oldBudget := pattern.MatchTimeout, pattern.DispatchBudget
	pattern.MatchTimeout, pattern.DispatchBudget = 20*time.Millisecond, 50*time.Millisecond
	defer func() { pattern.MatchTimeout, pattern.DispatchBudget = old, oldBudget }()
	evil := strings.Repeat("a", 40) + "c"
	for _, groups := range [][2]string{{`^(a+)+\\1b`, "*"}, {"*", `^(a+)+\\1b`}} {
		entries, _, err := parseClaudeSettings([]byte(`{"hooks":{"PreToolUse":[
		  {"matcher":"`+groups[0]+`","hooks":[{"type":"command","command":"guard.sh"}]},
		  {"matcher":"`+groups[1]+`","hooks":[{"type":"command","command":"guard.sh"}]}]}}`), "s.json")
		if err != nil || len(entries) != 2 {
			t.Fatalf("entries %d err %v", len(entries), err)
		}
		d, _ := New(&hookconfig.Config{Entries: entries, Tools: protocol.DefaultTools()}, Options{Gate: AllowAll})
		ev, _ := protocol.Lookup("PreToolUse")
		sel := d.selectFor(ev, map[string]any{"tool_name": evil})
		if len(sel) != 1 || sel[0].Matcher != "*" {
			var got []string
			for _, e := range sel {
				got = append(got, e.Matcher)
			}
			t.Errorf("matchers %q: selected %q, want the one that selects the firing", groups, got)
		}
	}
}
