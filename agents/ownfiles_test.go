package agents

import (
	"encoding/json"
	"path"
	"runtime"
	"slices"
	"testing"
)

// TestLoadsItself: only the files an agent looks for by itself are its to
// run; the same format elsewhere (a team's guards under $HERMES_HOME) is
// not (issue 31, item 7).
func TestLoadsItself(t *testing.T) {
	for _, tc := range []struct {
		agent, file string
		want        bool
	}{
		{"claude", "/home/u/.claude/settings.json", true},
		{"claude", "/repo/.claude/settings.json", true},
		{"claude", "/repo/.claude/settings.local.json", true},
		{"claude", ".claude/settings.json", true},
		{"claude", "/repo/sub/../.claude/settings.json", true},
		{"claude", "/etc/claude-code/managed-settings.json", true},
		{"claude", "/Library/Application Support/ClaudeCode/managed-settings.json", true},
		{"claude", "/home/u/.hermes/guards/team.json", false},
		{"claude", "/repo/.claude/team.json", false},
		{"claude", "/repo/settings.json", false},
		{"claude", "/repo/.claude/settings.json/x", false},
		{"claude", "/tmp/managed-settings.json", false},
		{"claude", "/repo/.codex/hooks.json", false},
		{"codex", "/repo/.codex/hooks.json", true},
		{"codex", "/repo/hooks.json", false},
		{"copilot", "/repo/.github/hooks/guard.json", true},
		{"copilot", "/home/u/.copilot/hooks/any.json", true},
		{"copilot", "/repo/.github/hooks/notes.txt", false},
		{"copilot", "/repo/.github/guard.json", false},
		{"cursor", "/repo/.cursor/hooks.json", true},
		{"cursor", "/srv/team/hooks.json", false},
		{"factory", "/repo/.factory/settings.local.json", true},
		{"gemini", "/etc/gemini-cli/settings.json", true},
		{"qwen", "/repo/.qwen/settings.json", true},
		{"windsurf", "/home/u/.codeium/windsurf/hooks.json", true},
		{"cline", "/repo/.clinerules/hooks/PreToolUse", true},
		{"cline", "/repo/hooks/PreToolUse", false},
		{"kiro", "/repo/.kiro/agents/default.json", false}, // no source: nothing to skip
	} {
		a, ok := Lookup(tc.agent)
		if !ok {
			t.Fatalf("no agent %s", tc.agent)
		}
		if got := a.LoadsItself(tc.file, Places{}); got != tc.want {
			t.Errorf("%s loads %s itself: %v, want %v", tc.agent, tc.file, got, tc.want)
		}
	}
}

// TestLoadsItselfAt: where the places of a call are known, Gemini CLI,
// Qwen Code and Codex read their files only there: the start folder's
// (Codex: each folder from the project's root down to it), the user's and
// the system's; a file of that name anywhere else (a team's under
// $HERMES_HOME) is run by hermes-hooks.
func TestLoadsItselfAt(t *testing.T) {
	env := func(vars ...string) func(string) string {
		return func(k string) string {
			for i := 0; i+1 < len(vars); i += 2 {
				if vars[i] == k {
					return vars[i+1]
				}
			}
			return ""
		}
	}
	root := func(string) string { return "/repo" }
	at := Places{Home: "/home/u", Start: []string{"/repo/pkg/web"}, Root: root}
	moved := Places{Home: "/home/u", Start: []string{"/home/u/team", "/repo"}, Roots: []string{"/repo"}, Root: func(s string) string { return s }}
	for _, tc := range []struct {
		agent, file string
		at          Places
		want        bool
	}{
		{"gemini", "/repo/pkg/web/.gemini/settings.json", at, true},
		{"gemini", "/home/u/.gemini/settings.json", at, true},
		{"gemini", "/etc/gemini-cli/settings.json", at, true},
		{"gemini", "/opt/sys.json", Places{Home: "/home/u", Env: env("GEMINI_CLI_SYSTEM_SETTINGS_PATH", "/opt/sys.json")}, true},
		{"gemini", "/home/u/.hermes/team/.gemini/settings.json", at, false},
		{"gemini", "/home/u/.hermes/team/gemini-cli/settings.json", at, false},
		{"gemini", "/repo/.gemini/settings.json", at, false}, // the root's, started below it
		{"gemini", "/repo/pkg/web/.gemini/settings.json", Places{Home: "/home/u"}, false},
		{"qwen", "/repo/pkg/web/.qwen/settings.json", at, true},
		{"qwen", "/home/u/.qwen/settings.json", at, true},
		{"qwen", "/q/settings.json", Places{Home: "/home/u", Env: env("QWEN_HOME", "/q")}, true},
		{"qwen", "/home/u/.qwen/settings.json", Places{Home: "/home/u", Env: env("QWEN_HOME", "/q")}, false},
		{"qwen", "/home/u/.hermes/team/.qwen/settings.json", at, false},
		{"codex", "/repo/.codex/hooks.json", at, true},
		{"codex", "/repo/pkg/.codex/hooks.json", at, true},
		{"codex", "/repo/pkg/web/.codex/hooks.json", at, true},
		{"codex", "/.codex/hooks.json", at, false}, // above the root
		{"codex", "/repo/.codex/hooks.json", Places{Home: "/home/u", Start: []string{"/repo/pkg/web"}}, false},
		{"codex", "/home/u/.codex/hooks.json", at, true},
		{"codex", "/c/hooks.json", Places{Home: "/home/u", Env: env("CODEX_HOME", "/c")}, true},
		{"codex", "/home/u/.hermes/team/.codex/hooks.json", at, false},
		{"codex", "/repo/pkg/web/hooks.json", at, false},
		// Cursor: each workspace root's file, the user's, the enterprise one.
		{"cursor", "/repo/pkg/web/.cursor/hooks.json", at, true},
		{"cursor", "/home/u/.cursor/hooks.json", at, true},
		{"cursor", "/etc/cursor/hooks.json", at, true},
		{"cursor", "/Library/Application Support/Cursor/hooks.json", at, true},
		{"cursor", "/home/u/.hermes/team/.cursor/hooks.json", at, false},
		{"cursor", "/repo/.cursor/hooks.json", Places{Home: "/home/u"}, false},
		// Not the folder a shell call's cwd names (a `cd` moved the
		// terminal there): Cursor reads its workspace roots' file.
		{"cursor", "/home/u/team/.cursor/hooks.json", moved, false},
		{"cursor", "/repo/.cursor/hooks.json", moved, true},
		{"windsurf", "/home/u/team/.windsurf/hooks.json", moved, false},
		{"cline", "/home/u/team/.clinerules/hooks/PreToolUse", moved, false},
		{"codex", "/home/u/team/.codex/hooks.json", moved, true}, // Codex: the session's cwd
		// Windsurf: the workspace's, the IDE's and the JetBrains plugin's
		// user files, the system file.
		{"windsurf", "/repo/pkg/web/.windsurf/hooks.json", at, true},
		{"windsurf", "/home/u/.codeium/windsurf/hooks.json", at, true},
		{"windsurf", "/home/u/.codeium/hooks.json", at, true},
		{"windsurf", "/etc/windsurf/hooks.json", at, true},
		{"windsurf", "/home/u/.hermes/windsurf/hooks.json", at, false},
		{"windsurf", "/home/u/.hermes/team/.windsurf/hooks.json", at, false},
		{"windsurf", "/srv/Windsurf/hooks.json", at, false},
		// GitHub Copilot CLI: any *.json of .github/hooks at the
		// repository's root, and of ~/.copilot/hooks ($COPILOT_HOME/hooks);
		// a team's file of that name anywhere else is nobody's but ours to
		// run (it was skipped under Copilot and run by no one).
		{"copilot", "/repo/.github/hooks/guard.json", at, true},
		{"copilot", "/repo/.github/hooks/notes.txt", at, false},
		{"copilot", "/repo/pkg/web/.github/hooks/guard.json", at, false},
		{"copilot", "/home/u/.copilot/hooks/any.json", at, true},
		{"copilot", "/c/hooks/any.json", Places{Home: "/home/u", Env: env("COPILOT_HOME", "/c")}, true},
		{"copilot", "/home/u/.copilot/hooks/any.json", Places{Home: "/home/u", Env: env("COPILOT_HOME", "/c")}, false},
		{"copilot", "/home/u/team/.github/hooks/guard.json", at, false},
		{"copilot", "/home/u/.hermes/team/.copilot/hooks/guard.json", at, false},
		// Cline: the executables of a workspace root's .clinerules/hooks
		// and of the user's Documents/Cline/Hooks.
		{"cline", "/repo/pkg/web/.clinerules/hooks/PreToolUse", at, true},
		{"cline", "/home/u/Documents/Cline/Hooks/PreToolUse", at, true},
		{"cline", "/home/u/team/.clinerules/hooks/PreToolUse", at, false},
		{"cline", "/repo/pkg/web/.clinerules/hooks/sub/PreToolUse", at, false},
		// Factory Droid: .factory/ of the project's root and of each
		// folder down to the start folder (its settings hierarchy), and
		// the user's ~/.factory.
		{"factory", "/repo/.factory/settings.json", at, true},
		{"factory", "/repo/pkg/web/.factory/settings.local.json", at, true},
		{"factory", "/repo/.factory/hooks.json", at, true},
		{"factory", "/home/u/.factory/settings.json", at, true},
		{"factory", "/home/u/.hermes/team/.factory/settings.json", at, false},
		// A hooks.json beside them replaces the hooks of Droid's
		// settings.json and settings.local.json (docs.factory.ai,
		// harness/hooks: settings' hooks are read only where hooks.json
		// is absent): theirs are hermes-hooks' to run then.
		{"factory", "/repo/.factory/settings.json", withHooksJSON(at, "/repo/.factory/hooks.json"), false},
		{"factory", "/repo/.factory/settings.local.json", withHooksJSON(at, "/repo/.factory/hooks/hooks.json"), false},
		{"factory", "/repo/.factory/hooks.json", withHooksJSON(at, "/repo/.factory/hooks.json"), true},
		{"factory", "/home/u/.factory/settings.json", withHooksJSON(at, "/home/u/.factory/hooks.json"), false},
		{"factory", "/repo/.factory/settings.json", withHooksJSON(at, "/home/u/.factory/hooks.json"), true},
		// Unknown places: the name decides, as before.
		{"gemini", "/home/u/.hermes/team/.gemini/settings.json", Places{}, true},
		{"copilot", "/home/u/team/.github/hooks/guard.json", Places{}, true},
		// Agents without known places: the name decides.
		{"claude", "/home/u/.hermes/team/.claude/settings.json", at, true},
	} {
		a, _ := Lookup(tc.agent)
		if got := a.LoadsItself(tc.file, tc.at); got != tc.want {
			t.Errorf("%s loads %s itself (at %+v): %v, want %v", tc.agent, tc.file, tc.at.Start, got, tc.want)
		}
	}
}

// TestEveryAgentLoadsWhatInstallWrites: an agent whose files are a hook
// source reads the project and user files install writes for it, so
// their entries (the user's own beside ours) are never run a second time
// by `hook AGENT`.
func TestEveryAgentLoadsWhatInstallWrites(t *testing.T) {
	for _, a := range All() {
		if a.Source.ConfigKey == "" {
			continue
		}
		for _, f := range []string{a.HookFile.Project, a.HookFile.User} {
			file := "/x/" + f
			if a.Source.Dir {
				file = path.Join(file, "PreToolUse")
			}
			if !a.LoadsItself(file, Places{Home: "/x", Start: []string{"/x"}}) {
				t.Errorf("%s does not load %s itself, yet install writes it", a.Name, file)
			}
		}
	}
}

// TestOwnPrograms: the programs install's commands for an agent call on an
// event, under the event's name as install writes it; other agents'
// commands, other events', other spellings' and the user's own commands
// are not ours (TestOwnProgramsAsVSCodeReads: the shapes VS Code reads
// differently).
func TestOwnPrograms(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("POSIX lines")
	}
	copilot, _ := Lookup("copilot")
	pre, _ := copilot.Canonical("PreToolUse")
	stop, _ := copilot.Canonical("Stop")
	h := func(line string) string {
		return `{"type":"command","command":"` + line + ` --agent-timeout 600","timeoutSec":600}`
	}
	data := []byte(`{"version":1,"hooks":{
		"PreToolUse":[` + h(`'/opt/it'\\''s/hermes-hooks' hook copilot PreToolUse`) + `,{"type":"command","command":"./mine.sh"},` + h(`'/c/hermes-hooks' hook claude PreToolUse`) + `,` + h(`'/e/hermes-hooks' hook copilot PreToolUse`) + `],
		"PostToolUse":[` + h(`'/b/hermes-hooks' hook copilot PostToolUse`) + `,` + h(`'/c/hermes-hooks' hook claude PreToolUse`) + `],
		"Stop":[` + h(`'/d/hermes-hooks' hook copilot Stop`) + `]}}`)
	got := copilot.OwnPrograms(data, pre)
	if want := []string{"/opt/it's/hermes-hooks", "/e/hermes-hooks"}; !slices.Equal(got, want) {
		t.Errorf("PreToolUse programs %q, want %q", got, want)
	}
	if got := copilot.OwnPrograms(data, stop); !slices.Equal(got, []string{"/d/hermes-hooks"}) {
		t.Errorf("Stop programs %q", got)
	}
	for _, bad := range []string{``, `[]`, `{"hooks":[]}`, `{"version":1,"hooks":{"PreToolUse":"x"}}`, `{"version":1,"hooks":{"PreToolUse":[1,{"command":2}]}}`,
		`{"version":1,"hooks":{"preToolUse":[` + h(`'/b/hermes-hooks' hook copilot preToolUse`) + `]}}`} {
		if got := copilot.OwnPrograms([]byte(bad), pre); got != nil {
			t.Errorf("%s: %q", bad, got)
		}
	}
}

// FuzzOwnPrograms: no hook file panics the reader; every program it
// returns is an absolute path or the PATH form's name; and a file it
// reads as ours stops being so with an env member in every handler
// (nothing VS Code would run differently is ever ours).
func FuzzOwnPrograms(f *testing.F) {
	f.Add([]byte(`{"version":1,"hooks":{"PreToolUse":[{"type":"command","command":"'/b/hermes-hooks' hook copilot PreToolUse --agent-timeout 600","timeoutSec":600}]}}`))
	f.Add([]byte(`{"hooks":{"PreToolUse":[{"hooks":[{"command":"'/a'\\''b' hook copilot"}]}]}}`))
	copilot, _ := Lookup("copilot")
	pre, _ := copilot.Canonical("PreToolUse")
	f.Fuzz(func(t *testing.T, data []byte) {
		got := copilot.OwnPrograms(data, pre)
		for _, p := range got {
			if !path.IsAbs(p) && p != ProgramName {
				t.Fatalf("program %q is neither absolute nor %s", p, ProgramName)
			}
		}
		if len(got) == 0 {
			return
		}
		var doc map[string]any
		if json.Unmarshal(data, &doc) != nil {
			t.Fatalf("programs %q from a file Go does not read", got)
		}
		hooks, _ := doc["hooks"].(map[string]any)
		list, _ := hooks["PreToolUse"].([]any)
		for _, h := range list {
			if m, ok := h.(map[string]any); ok {
				m["env"] = map[string]any{}
			}
		}
		altered, _ := json.Marshal(doc)
		if again := copilot.OwnPrograms(altered, pre); again != nil {
			t.Fatalf("with env in every handler, still programs %q", again)
		}
	})
}

// withHooksJSON is at where the files exist are exactly those.
func withHooksJSON(at Places, exist ...string) Places {
	at.Exists = func(p string) bool { return slices.Contains(exist, p) }
	return at
}
