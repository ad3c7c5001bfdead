package hookconfig

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// guardView is what the unreadable-guard tests compare of an entry.
type guardView struct {
	declared, matcher string
	project           bool   // approved per repository (Scope.Project)
	runBy             string // "": every caller, the file's own agent too
}

// unreadableOf parses data as kind ("yaml", or an agent's name) at path
// and returns its unreadable guards, failing on any other error.
func unreadableOf(t *testing.T, kind, path, data string) []*Entry {
	t.Helper()
	var entries []*Entry
	if kind == "yaml" {
		cfg, err := ParseConfig([]byte(data), path)
		if err != nil {
			t.Fatal(err)
		}
		entries = cfg.Entries
	} else {
		es, _, err := ParseAgentFile(kind, []byte(data), path)
		if err != nil {
			t.Fatal(err)
		}
		entries = es
	}
	var out []*Entry
	for _, e := range entries {
		if e.Unreadable() {
			out = append(out, e)
		}
	}
	return out
}

// TestUnreadableClaudeShapedGuard: a Claude Code-shaped handler (in the
// YAML, a settings file, an agent's grouped or flat hook file) that asks
// to fail closed but is skipped as unreadable stands as the same guard a
// YAML entry does, where its event honors fail_closed; elsewhere, and
// without fail_closed, it is skipped as before.
func TestUnreadableClaudeShapedGuard(t *testing.T) {
	dir := t.TempDir()
	project := filepath.Join(dir, "proj", ".claude", "settings.json")
	user := filepath.Join(dir, "mine", "claude.json")
	cursorProject := filepath.Join(dir, "proj", ".cursor", "hooks.json")
	codexProject := filepath.Join(dir, "proj", ".codex", "hooks.json")
	yamlPath := filepath.Join(dir, "config.yaml")
	group := func(ev, matcher, handler string) string {
		return `{"hooks":{"` + ev + `":[{"matcher":` + matcher + `,"hooks":[` + handler + `]}]}}`
	}
	for _, tc := range []struct {
		name, kind, path, data string
		want                   []guardView
		why                    string // in the guard's reason
	}{
		// (a) A Claude matcher group pasted into the Hermes YAML.
		{name: "yaml group misspelt command", kind: "yaml", path: yamlPath,
			data: "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: command\n          comand: ./g.sh\n          onFailure: block\n",
			want: []guardView{{"PreToolUse", "Bash", false, ""}}, why: "missing a non-empty 'command' field"},
		{name: "yaml group unknown type", kind: "yaml", path: yamlPath,
			data: "hooks:\n  PreToolUse:\n    - hooks:\n        - type: frob\n          command: ./g.sh\n          fail_closed: true\n",
			want: []guardView{{"PreToolUse", "", false, ""}}, why: "unknown type 'frob'"},
		{name: "yaml group type not a string", kind: "yaml", path: yamlPath,
			data: "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - type: [command]\n          command: ./g.sh\n          onFailure: block\n",
			want: []guardView{{"PreToolUse", "Bash", false, ""}}, why: ".type must be a string"},
		{name: "yaml group handler's own matcher", kind: "yaml", path: yamlPath,
			data: "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        - matcher: Edit\n          command: [a]\n          onFailure: block\n",
			want: []guardView{{"PreToolUse", "Edit", false, ""}}, why: "command"},
		{name: "yaml group matcher not a string", kind: "yaml", path: yamlPath,
			data: "hooks:\n  PreToolUse:\n    - matcher: [Bash]\n      hooks:\n        - command: ./g.sh\n          onFailure: block\n",
			want: []guardView{{"PreToolUse", "", false, ""}}, why: "matcher must be a string"},
		{name: "yaml group async", kind: "yaml", path: yamlPath,
			data: "hooks:\n  PreToolUse:\n    - hooks:\n        - comand: ./g.sh\n          async: true\n          onFailure: block\n"},
		{name: "yaml group stop hook", kind: "yaml", path: yamlPath,
			data: "hooks:\n  Stop:\n    - hooks:\n        - comand: ./g.sh\n          onFailure: block\n"},
		{name: "yaml group open", kind: "yaml", path: yamlPath,
			data: "hooks:\n  PreToolUse:\n    - hooks:\n        - comand: ./g.sh\n"},

		// (b) Claude Code settings, and the agents sharing its shape.
		{name: "project settings misspelt command", kind: "claude", path: project,
			data: group("PreToolUse", `"Bash"`, `{"type":"command","comand":"./g.sh","onFailure":"block"}`),
			want: []guardView{{"PreToolUse", "Bash", true, ""}}, why: "missing a non-empty 'command' field"},
		{name: "user settings misspelt command", kind: "claude", path: user,
			data: group("PreToolUse", `"Bash"`, `{"type":"command","comand":"./g.sh","onFailure":"block"}`),
			want: []guardView{{"PreToolUse", "Bash", false, ""}}, why: "command"},
		{name: "settings command a list", kind: "claude", path: project,
			data: group("PreToolUse", `"Bash"`, `{"type":"command","command":["rm"],"fail_closed":true}`),
			want: []guardView{{"PreToolUse", "Bash", true, ""}}, why: "command"},
		{name: "settings empty command", kind: "claude", path: project,
			data: group("PreToolUse", `"Bash"`, `{"command":"  ","onFailure":"block"}`),
			want: []guardView{{"PreToolUse", "Bash", true, ""}}, why: "command"},
		{name: "settings type a number", kind: "claude", path: project,
			data: group("PreToolUse", `"Bash"`, `{"type":7,"command":"./g.sh","onFailure":"block"}`),
			want: []guardView{{"PreToolUse", "Bash", true, ""}}, why: ".type must be a string"},
		{name: "settings unknown type", kind: "claude", path: project,
			data: group("PreToolUse", `"Bash"`, `{"type":"comand","command":"./g.sh","onFailure":"block"}`),
			want: []guardView{{"PreToolUse", "Bash", true, "claude"}}, why: "unknown type 'comand'"},
		{name: "settings http without url", kind: "claude", path: project,
			data: group("PreToolUse", `"Bash"`, `{"type":"http","uri":"https://x","onFailure":"block"}`),
			want: []guardView{{"PreToolUse", "Bash", true, ""}}, why: "without a 'url'"},
		{name: "settings args not a list", kind: "claude", path: project,
			data: group("PreToolUse", `"Bash"`, `{"command":"./g.sh","args":"x","onFailure":"block"}`),
			want: []guardView{{"PreToolUse", "Bash", true, ""}}, why: ".args must be a list"},
		{name: "settings group matcher not a string", kind: "claude", path: project,
			data: group("PreToolUse", `7`, `{"command":"./g.sh","onFailure":"block"}`),
			want: []guardView{{"PreToolUse", "", true, ""}}, why: "matcher must be a string"},
		{name: "settings async", kind: "claude", path: project,
			data: group("PreToolUse", `"Bash"`, `{"comand":"./g.sh","async":true,"onFailure":"block"}`)},
		{name: "settings stop hook", kind: "claude", path: project,
			data: group("Stop", `""`, `{"comand":"./g.sh","onFailure":"block"}`)},
		{name: "settings open", kind: "claude", path: project,
			data: group("PreToolUse", `"Bash"`, `{"comand":"./g.sh"}`)},
		{name: "settings onFailure allow", kind: "claude", path: project,
			data: group("PreToolUse", `"Bash"`, `{"comand":"./g.sh","onFailure":"allow"}`)},
		{name: "codex failClosed", kind: "codex", path: codexProject,
			data: group("PreToolUse", `"Bash"`, `{"type":"command","comand":"./g.sh","failClosed":true}`),
			want: []guardView{{"PreToolUse", "Bash", true, ""}}, why: "command"},
		{name: "copilot flat entry", kind: "copilot", path: filepath.Join(dir, "proj", ".github", "hooks", "h.json"),
			data: `{"version":1,"hooks":{"preToolUse":[{"type":"command","comand":"./g.sh","failClosed":true}]}}`,
			want: []guardView{{"preToolUse", "", true, ""}}, why: "command"},

		// (c) Flat agent hook files.
		{name: "cursor misspelt command", kind: "cursor", path: cursorProject,
			data: `{"version":1,"hooks":{"beforeShellExecution":[{"comand":"./g.sh","failClosed":true}]}}`,
			want: []guardView{{"beforeShellExecution", "", true, ""}}, why: "command"},
		{name: "cursor unknown type", kind: "cursor", path: cursorProject,
			data: `{"version":1,"hooks":{"beforeShellExecution":[{"type":"frob","command":"./g.sh","failClosed":true}]}}`,
			want: []guardView{{"beforeShellExecution", "", true, "cursor"}}, why: "unknown type 'frob'"},
		{name: "cursor type a number", kind: "cursor", path: cursorProject,
			data: `{"version":1,"hooks":{"beforeShellExecution":[{"type":1,"command":"./g.sh","failClosed":true}]}}`,
			want: []guardView{{"beforeShellExecution", "", true, ""}}, why: ".type must be a string"},
		{name: "cursor stop", kind: "cursor", path: cursorProject,
			data: `{"version":1,"hooks":{"stop":[{"comand":"./g.sh","failClosed":true}]}}`},
		{name: "cursor lone hook", kind: "cursor", path: cursorProject,
			data: `{"version":1,"hooks":{"beforeShellExecution":{"command":"./g.sh","failClosed":true}}}`,
			want: []guardView{{"beforeShellExecution", "", true, ""}}, why: "must be a list"},

		// An event's hooks written as one entry or group, not a list of
		// them: skipped whole, but a guard in it stands.
		{name: "yaml lone entry", kind: "yaml", path: yamlPath,
			data: "hooks:\n  pre_tool_call:\n    command: ./g.sh\n    matcher: terminal\n    fail_closed: true\n",
			want: []guardView{{"pre_tool_call", "terminal", false, ""}}, why: "must be a list"},
		{name: "yaml lone group", kind: "yaml", path: yamlPath,
			data: "hooks:\n  PreToolUse:\n    matcher: Bash\n    hooks:\n      - command: ./g.sh\n        onFailure: block\n      - command: ./h.sh\n",
			want: []guardView{{"PreToolUse", "Bash", false, ""}}, why: "must be a list"},
		{name: "yaml lone open", kind: "yaml", path: yamlPath,
			data: "hooks:\n  pre_tool_call:\n    command: ./g.sh\n"},
		{name: "settings lone group", kind: "claude", path: project,
			data: `{"hooks":{"PreToolUse":{"matcher":"Bash","hooks":[{"command":"./g.sh","onFailure":"block"},{"command":"./h.sh"}]}}}`,
			want: []guardView{{"PreToolUse", "Bash", true, ""}}, why: "must be a list"},
		{name: "yaml group lone handler", kind: "yaml", path: yamlPath,
			data: "hooks:\n  PreToolUse:\n    - matcher: Bash\n      hooks:\n        command: ./g.sh\n        onFailure: block\n",
			want: []guardView{{"PreToolUse", "Bash", false, ""}}, why: ".hooks must be a list"},
		{name: "settings group lone handler", kind: "claude", path: project,
			data: `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":{"command":"./g.sh","onFailure":"block"}}]}}`,
			want: []guardView{{"PreToolUse", "Bash", true, ""}}, why: ".hooks must be a list"},
		{name: "settings lone group lone handler", kind: "claude", path: project,
			data: `{"hooks":{"PreToolUse":{"matcher":"Bash","hooks":{"command":"./g.sh","onFailure":"block"}}}}`,
			want: []guardView{{"PreToolUse", "Bash", true, ""}}, why: "must be a list"},
		{name: "settings lone handler", kind: "claude", path: project,
			data: `{"hooks":{"PreToolUse":{"type":"command","command":"y","failClosed":true}}}`,
			want: []guardView{{"PreToolUse", "", true, ""}}, why: "must be a list"},
		{name: "codex lone handler", kind: "codex", path: codexProject,
			data: `{"hooks":{"PreToolUse":{"type":"command","command":"y","failClosed":true}}}`,
			want: []guardView{{"PreToolUse", "", true, ""}}, why: "must be a list"},
		// A lone group with a stray command key is still a group: its
		// handlers' guards stand, as in its list twin (a command beside
		// hooks: is no handler of its own there either).
		{name: "settings lone group with a command", kind: "claude", path: project,
			data: `{"hooks":{"PreToolUse":{"command":"/bin/true","hooks":[{"type":"command","command":"y","failClosed":true}]}}}`,
			want: []guardView{{"PreToolUse", "", true, ""}}, why: "must be a list"},
		// A handler written where a matcher group belongs (its group
		// left out): skipped, but a guard stands, as a lone one's does.
		{name: "settings handler in the event's list", kind: "claude", path: project,
			data: `{"hooks":{"PreToolUse":[{"type":"command","command":"/guard.sh","fail_closed":true}]}}`,
			want: []guardView{{"PreToolUse", "", true, ""}}, why: "is a handler, not a matcher group"},
		{name: "codex handler in the event's list", kind: "codex", path: codexProject,
			data: `{"hooks":{"PreToolUse":[{"type":"command","command":"y","onFailure":"block"}]}}`,
			want: []guardView{{"PreToolUse", "", true, ""}}, why: "is a handler, not a matcher group"},
		{name: "settings handler in the event's list open", kind: "claude", path: project,
			data: `{"hooks":{"PreToolUse":[{"type":"command","command":"y"}]}}`},
		{name: "settings lone handler open", kind: "claude", path: project,
			data: `{"hooks":{"PreToolUse":{"type":"command","command":"y"}}}`},
		{name: "yaml group matcher not a string lone handler", kind: "yaml", path: yamlPath,
			data: "hooks:\n  PreToolUse:\n    - matcher: [x]\n      hooks: {command: y, fail_closed: true}\n",
			want: []guardView{{"PreToolUse", "", false, ""}}, why: "matcher must be a string"},
		{name: "settings once", kind: "claude", path: project,
			data: group("PreToolUse", `"Bash"`, `{"comand":"./g.sh","once":true,"onFailure":"block"}`),
			want: []guardView{{"PreToolUse", "Bash", true, ""}}, why: "command"},
		{name: "cursor open", kind: "cursor", path: cursorProject,
			data: `{"version":1,"hooks":{"beforeShellExecution":[{"comand":"./g.sh"}]}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := os.MkdirAll(filepath.Dir(tc.path), 0o755); err != nil {
				t.Fatal(err)
			}
			got := unreadableOf(t, tc.kind, tc.path, tc.data)
			if len(got) != len(tc.want) {
				t.Fatalf("%d unreadable guards, want %d", len(got), len(tc.want))
			}
			for i, e := range got {
				v := guardView{e.DeclaredAs, e.Matcher, !e.Scope.Global(), e.RunBy}
				if v != tc.want[i] {
					t.Errorf("guard %d = %+v, want %+v", i, v, tc.want[i])
				}
				if !e.FailClosed || e.Async || e.Once {
					t.Errorf("guard %d: fail_closed %v async %v once %v, want a synchronous fail_closed guard", i, e.FailClosed, e.Async, e.Once)
				}
				if !strings.Contains(e.Text(), tc.path) {
					t.Errorf("guard %d is %q, which does not name %s", i, e.Text(), tc.path)
				}
				if why := e.CannotRun(); !strings.Contains(why, tc.why) || strings.Count(why, tc.path) > 0 {
					t.Errorf("guard %d: why %q, want it to say %q (the file is named once, by the guard)", i, why, tc.why)
				}
				if e.NeedsApproval() != !e.Scope.Global() {
					t.Errorf("guard %d: NeedsApproval %v with scope %+v", i, e.NeedsApproval(), e.Scope)
				}
			}
		})
	}
}

// TestRepositoryUnreadableGuardsNeedApproval (attack): a hostile
// repository cannot use an unreadable handler to block calls without the
// user's approval, in whatever shape or file it writes one: each it
// declares is approved per repository, like its hooks.
func TestRepositoryUnreadableGuardsNeedApproval(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	const handlers = `[{"comand":"x","onFailure":"block"},{"type":7,"command":"x","onFailure":"block"},` +
		`{"type":"frob","command":"x","fail_closed":true},{"type":"http","onFailure":"block"},{"command":["x"],"failClosed":true}]`
	writeFiles(t, dir, map[string]string{
		"repo/.git/HEAD": "ref: refs/heads/main\n",
		"repo/.hermes/hooks.yaml": "claude_settings: [.claude/settings.json, elsewhere.json, lone.json, lonehandler.json]\ncursor_hooks: [.cursor/hooks.json]\n" +
			"hooks:\n  pre_tool_call:\n    - comand: x\n      fail_closed: true\n  PreToolUse:\n" +
			"    - matcher: Bash\n      hooks: " + handlers + "\n    - matcher: [Bash]\n      hooks: " + handlers + "\n",
		"repo/.claude/settings.json": `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":` + handlers + `},{"matcher":{},"hooks":` + handlers + `}]}}`,
		"repo/elsewhere.json":        `{"hooks":{"PreToolUse":[{"hooks":` + handlers + `}]}}`,
		"repo/lone.json":             `{"hooks":{"PreToolUse":{"matcher":"Bash","hooks":` + handlers + `}}}`,
		"repo/lonehandler.json":      `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":{"comand":"x","onFailure":"block"}}]}}`,
		"repo/.cursor/hooks.json":    `{"version":1,"hooks":{"beforeShellExecution":` + handlers + `}}`,
		"home/config.yaml":           "",
	})
	cfg, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range cfg.Entries {
		if !e.Unreadable() {
			continue
		}
		n++
		if !e.NeedsApproval() || e.Scope.Project == "" {
			t.Errorf("%s (%s) runs without approval: scope %+v", e.Text(), e.Source, e.Scope)
		}
	}
	// 1 Hermes entry; 5 handlers in each of 2 YAML groups, 2 settings
	// groups, the file elsewhere, the lone group and the Cursor file; a
	// handler written alone.
	if want := 1 + 5*7 + 1; n != want {
		t.Errorf("%d unreadable guards, want %d: one vanished", n, want)
	}
}

// checkUnreadable is the fuzzers' check of an unreadable guard: it asks to
// fail closed, runs synchronously on every firing it matches, and says
// why it cannot be read.
func checkUnreadable(t *testing.T, e *Entry) {
	t.Helper()
	if e.Unreadable() && (!e.FailClosed || e.Async || e.Once || !strings.HasPrefix(e.CannotRun(), "cannot be read: ")) {
		t.Fatalf("bad unreadable guard %+v", e)
	}
}
