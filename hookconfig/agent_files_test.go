package hookconfig

import (
	"encoding/json"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// entryView is what the loader tests compare of an entry.
type entryView struct {
	event, declared, command, matcher string
	dialect                           protocol.Dialect
	fileOf                            string
	timeout                           string
	failClosed                        bool
	unsupported                       bool
}

func view(e *Entry) entryView {
	return entryView{e.Event.Name, e.DeclaredAs, e.Text(), e.Matcher, e.Dialect, e.FileOf, e.TimeoutSeconds(), e.FailClosed, e.CannotRun() != ""}
}

func TestAgentHookFileLoaders(t *testing.T) {
	own := `'/usr/local/bin/hermes-hooks' hook ` // an older install's bare path
	codex, _ := agents.Lookup("codex")
	// Today's absolute form (its guard answers when the program is gone)
	// is ours; a look-alike that tests one path and runs another is the
	// user's hook.
	guarded, _ := json.Marshal(codex.HookCommand("/opt/it's/hermes-hooks", "PreToolUse"))
	const lookalike = `[ -f '/opt/hermes-hooks' ] && [ -x '/opt/hermes-hooks' ] || exit 0; exec '/tmp/evil' hook codex PreToolUse`
	for _, tc := range []struct {
		name  string
		parse func([]byte, string, int) ([]*Entry, []Warning, error)
		data  string
		want  []entryView
		warns []string
	}{
		{name: "codex grouped", parse: parseCodexHooks,
			data: `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./g.sh","timeout":30},
				{"type":"command","command":"` + own + `codex"},
				{"type":"command","command":` + string(guarded) + `},
				{"type":"command","command":"` + lookalike + `"}]}],
				"Interrupt":[{"hooks":[{"command":"x"}]}], "PostCompact":[{"hooks":[{"command":"./c.sh"}]}]}}`,
			want: []entryView{
				{"PostCompact", "PostCompact", "./c.sh", "", protocol.Claude, "codex", "600", false, false},
				{"pre_tool_call", "PreToolUse", "./g.sh", "Bash", protocol.Claude, "codex", "30", false, false},
				{"pre_tool_call", "PreToolUse", lookalike, "Bash", protocol.Claude, "codex", "600", false, false},
			},
			warns: []string{"hooks.Interrupt: 'Interrupt' is not a Codex CLI event hermes-hooks serves; skipped"}},
		{name: "copilot flat camelCase", parse: parseCopilotHooks,
			data: `{"version":1,"hooks":{"preToolUse":[
				{"type":"command","bash":"./g.sh","powershell":"g.ps1","timeoutSec":20,"matcher":"bash|view"},
				{"type":"command","command":"./x.sh","cwd":"sub"},
				{"type":"command","exec":"/bin/echo","args":["a b"]},
				{"type":"command","powershell":"g.ps1"},
				{"type":"command","bash":"` + own + `copilot"}],
				"agentStop":[{"type":"command","bash":"./s.sh","timeout":5}]}}`,
			want: []entryView{
				{"pre_verify", "agentStop", "./s.sh", "", protocol.Claude, "copilot", "5", false, false},
				{"pre_tool_call", "preToolUse", "./g.sh", "bash|powershell|view", protocol.Claude, "copilot", "20", false, false},
				{"pre_tool_call", "preToolUse", "./x.sh", "", protocol.Claude, "copilot", "600", false, false},
				{"pre_tool_call", "preToolUse", "/bin/echo 'a b'", "", protocol.Claude, "copilot", "600", false, false},
			},
			warns: []string{"hooks.preToolUse[1].cwd is not supported here", "hooks.preToolUse[3] has only a powershell command, which GitHub Copilot CLI runs on Windows only; skipped"}},
		{name: "copilot grouped PascalCase", parse: parseCopilotHooks,
			data: `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","bash":"./g.sh","timeoutSec":9}]}],
				"postToolUse":[{"matcher":"edit.*","hooks":[{"command":"./p.sh"}]}]}}`,
			want: []entryView{
				{"pre_tool_call", "PreToolUse", "./g.sh", "Bash", protocol.Claude, "copilot", "9", false, false},
				{"post_tool_call", "postToolUse", "./p.sh", "^(?:edit.*)$", protocol.Claude, "copilot", "600", false, false},
			}},
		{name: "copilot disableAllHooks", parse: parseCopilotHooks,
			data:  `{"disableAllHooks":true,"hooks":{"preToolUse":[{"bash":"./g.sh"}]}}`,
			warns: []string{"disableAllHooks: is true"}},
		{name: "gemini settings", parse: parseGeminiFile,
			// Gemini's own shape: ms timeouts, regex matchers over its tool
			// names, hooksConfig; its scripts speak Gemini's protocol.
			data: `{"hooksConfig":{"disabled":["off"]},"hooks":{"notifications":true,
				"BeforeTool":[{"matcher":"run_shell_command|write","sequential":true,"hooks":[{"type":"command","command":"./g.sh","timeout":5000},
					{"type":"command","command":"./x.sh","name":"off"},{"command":"./untyped.sh"},
					{"type":"command","command":"` + own + `gemini BeforeTool","timeout":600000}]}],
				"SessionStart":[{"matcher":"startup","hooks":[{"type":"command","command":"./s.sh","async":true}]}],
				"BeforeToolSelection":[{"hooks":[{"type":"command","command":"./t.sh"}]}]}}`,
			want: []entryView{
				{"pre_tool_call", "BeforeTool", "./g.sh", "(?:run_shell_command|write)", "gemini", "gemini", "5", false, false},
				{"on_session_start", "SessionStart", "./s.sh", "startup", "gemini", "gemini", "60", false, false},
			},
			warns: []string{"hooks.BeforeTool[0].hooks[1]: is disabled by hooksConfig.disabled",
				"hooks.BeforeTool[0].hooks[2] has no type: Gemini CLI discards such a hook",
				"hooks.BeforeToolSelection: 'BeforeToolSelection' is not a Gemini CLI event hermes-hooks serves; skipped"}},
		{name: "qwen settings", parse: parseQwenFile,
			// Claude Code's shape and protocol with Qwen's tool names (a
			// matcher's aliases become them, its regex kept: Qwen reads
			// even a plain word as one), a timeout of 1000 or more in
			// milliseconds.
			data: `{"hooks":{"enabled":true,"PreToolUse":[{"matcher":"run_shell_command|edit","hooks":[{"type":"command","command":"./g.sh","timeout":5000},
					{"type":"command","command":"` + own + `qwen PreToolUse","timeout":600}]}],
				"TodoCreated":[{"hooks":[{"type":"command","command":"./t.sh","timeout":30}]}],
				"TodoCompleted":[{"hooks":[{"type":"command","command":"./n.sh"}]}],
				"SessionDelete":[{"hooks":[{"type":"command","command":"./d.sh"}]}]}}`,
			want: []entryView{
				{"pre_tool_call", "PreToolUse", "./g.sh", "(?:run_shell_command|edit)", "qwen", "qwen", "5", false, false},
				// No timeout: Qwen's default for a command hook, a minute.
				{"TaskCompleted", "TodoCompleted", "./n.sh", "", "qwen", "qwen", "60", false, false},
				{"TaskCreated", "TodoCreated", "./t.sh", "", "qwen", "qwen", "30", false, false},
			},
			warns: []string{"hooks.SessionDelete: 'SessionDelete' has no hermes-hooks event"}},
		{name: "factory settings", parse: parseFactoryFile,
			data: `{"model":"x","hooks":{"PreToolUse":[{"matcher":"Execute","hooks":[{"type":"command","command":"./g.sh","timeout":9},
					{"type":"command","command":"` + own + `factory PreToolUse","timeout":600}]}],
				"PermissionRequest":[{"hooks":[{"type":"command","command":"./p.sh"}]}]}}`,
			want: []entryView{
				{"pre_tool_call", "PreToolUse", "./g.sh", "Execute", "factory", "factory", "9", false, false},
			},
			warns: []string{"hooks.PermissionRequest: 'PermissionRequest' is not a Factory Droid event; skipped"}},
		{name: "cursor", parse: parseCursorFile,
			data: `{"version":1,"hooks":{
				"beforeShellExecution":[{"command":"./g.sh","timeout":2.5,"failClosed":true,"dialect":"hermes"}],
				"preToolUse":[{"command":"./p.sh","matcher":"Shell|Read"},{"command":"` + own + `cursor"}],
				"stop":[{"command":"./s.sh","failClosed":true},{"type":"prompt","prompt":"done?"}],
				"beforeSubmitPrompt":[{"command":"./b.sh","matcher":"x"}],
				"afterAgentThought":[{"command":"./t.sh"}],
				"sessionEnd":[{"type":"mcp"}], "postToolUse":"nope"}}`,
			want: []entryView{
				{"pre_tool_call", "beforeShellExecution", "./g.sh", "", cursorDialect, "cursor", "2.5", true, false},
				{"pre_llm_call", "beforeSubmitPrompt", "./b.sh", "", cursorDialect, "cursor", "30", false, false},
				{"pre_tool_call", "preToolUse", "./p.sh", "Shell|Read", cursorDialect, "cursor", "600", false, false},
				{"pre_verify", "stop", "./s.sh", "", cursorDialect, "cursor", "600", false, false},
				{"pre_verify", "stop", "prompt: done?", "", cursorDialect, "cursor", "600", false, true},
			},
			warns: []string{
				"hooks.afterAgentThought: 'afterAgentThought' is not a Cursor event hermes-hooks serves; skipped",
				"hooks.beforeSubmitPrompt[0].matcher is ignored on beforeSubmitPrompt",
				"hooks.postToolUse: must be a list of hooks; skipped",
				"hooks.sessionEnd[0] has unknown type 'mcp'; skipped",
				"hooks.stop[0].failClosed is only honored",
				"hooks.stop[1] has type 'prompt': a prompt handler: it needs a model"}},
	} {
		if tc.name == "copilot flat camelCase" && runtime.GOOS == "windows" {
			// Copilot runs the powershell key there (shell: "powershell").
			tc.want[1].command = "g.ps1"
			tc.want = append(tc.want, entryView{"pre_tool_call", "preToolUse", "g.ps1", "", protocol.Claude, "copilot", "600", false, false})
			tc.warns = tc.warns[:1]
		}
		t.Run(tc.name, func(t *testing.T) {
			entries, warns, err := tc.parse([]byte(tc.data), "/nowhere/hooks.json", 0)
			if err != nil {
				t.Fatal(err)
			}
			var got []entryView
			for _, e := range entries {
				got = append(got, view(e))
			}
			if len(got) != len(tc.want) {
				t.Fatalf("entries:\n%+v\nwant:\n%+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("entry %d = %+v, want %+v", i, got[i], tc.want[i])
				}
			}
			all := ""
			for _, w := range warns {
				all += w.String() + "\n"
			}
			for _, w := range tc.warns {
				if !strings.Contains(all, w) {
					t.Errorf("warnings lack %q:\n%s", w, all)
				}
			}
		})
	}
}

// TestAgentHookFilesLoad: the config keys and LoadOptions name the files;
// a missing config-named one is a warning, a missing flag-named one an
// error; a project's file gives its hooks a project scope.
func TestAgentHookFilesLoad(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "proj", ".cursor", "hooks.json"), `{"hooks":{"beforeReadFile":[{"command":"./r.sh"}]}}`)
	writeFile(t, filepath.Join(dir, "proj", ".codex", "hooks.json"), `{"hooks":{"Stop":[{"hooks":[{"command":"./s.sh"}]}]}}`)
	writeFile(t, filepath.Join(dir, "proj", ".github", "hooks", "h.json"), `{"hooks":{"sessionStart":[{"bash":"./c.sh"}]}}`)
	cfgPath := filepath.Join(dir, "config.yaml")
	writeFile(t, cfgPath, "cursor_hooks: [proj/.cursor/hooks.json, gone.json]\ncodex_hooks: proj/.codex/hooks.json\ncopilot_hooks: 7\n")
	// Started in proj, Codex reads proj/.codex/hooks.json itself.
	cfg, err := Load(cfgPath, LoadOptions{ProjectDir: filepath.Join(dir, "proj"), AgentFiles: AgentFiles{"copilot": []string{filepath.Join(dir, "proj", ".github", "hooks", "h.json")}}})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range cfg.Entries {
		got = append(got, e.RunBy+" "+e.DeclaredAs+" "+e.Scope.Project)
	}
	proj := filepath.Join(dir, "proj")
	want := []string{"codex Stop " + proj, "copilot sessionStart " + proj, "cursor beforeReadFile " + proj}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(cfg.AgentFiles["cursor"]) != 1 || len(cfg.AgentFiles["codex"]) != 1 || len(cfg.AgentFiles["copilot"]) != 1 || len(cfg.AgentHookFiles()) != 3 {
		t.Errorf("files read: %v", cfg.AgentHookFiles())
	}
	warns := ""
	for _, w := range cfg.Warnings {
		warns += w.String() + "\n"
	}
	for _, w := range []string{"cursor_hooks: " + filepath.Join(dir, "gone.json") + ": no such file; skipped",
		"copilot_hooks: must be a list of Copilot hooks file paths"} {
		if !strings.Contains(warns, w) {
			t.Errorf("warnings lack %q:\n%s", w, warns)
		}
	}
	if _, err := Load(cfgPath, LoadOptions{AgentFiles: AgentFiles{"cursor": []string{filepath.Join(dir, "gone.json")}}}); err == nil {
		t.Error("a missing --cursor-hooks file loaded")
	}
}

func FuzzParseCodexHooks(f *testing.F) {
	f.Add([]byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"x","timeout":3}]}]}}`))
	f.Add([]byte(`{"hooks":{"Interrupt":[{"hooks":[{"type":"mcp_tool","server":"s"}]}]}}`))
	f.Add([]byte(`{"hooks":{"PreToolUse":[{"matcher":7,"hooks":[{"command":"x","failClosed":true}]},{"hooks":[{"type":"frob","onFailure":"block","async":true}]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzAgentFile(t, parseCodexHooks, data, protocol.Claude, "codex") })
}

func FuzzParseCopilotHooks(f *testing.F) {
	f.Add([]byte(`{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"x","timeoutSec":3,"matcher":"bash|(view"}]}}`))
	f.Add([]byte(`{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"exec":"e","args":["a"]}]}],"agentStop":[{"powershell":"p"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzAgentFile(t, parseCopilotHooks, data, protocol.Claude, "copilot") })
}

func FuzzParseGeminiSettings(f *testing.F) {
	f.Add([]byte(`{"hooksConfig":{"disabled":["a"]},"hooks":{"BeforeTool":[{"matcher":"(run","hooks":[{"type":"command","command":"a","timeout":1.5}]}]}}`))
	f.Add([]byte(`{"hooksConfig":{"enabled":false},"hooks":{"AfterAgent":[{"hooks":[{"command":"x","env":{}}]}],"enabled":1}}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzAgentFile(t, parseGeminiFile, data, "gemini", "gemini") })
}

func FuzzParseQwenSettings(f *testing.F) {
	f.Add([]byte(`{"hooks":{"disabled":["a"],"PreToolUse":[{"matcher":"run_shell_command|(x","hooks":[{"type":"command","command":"a","timeout":1500}]}]}}`))
	f.Add([]byte(`{"hooks":{"TodoCreated":[{"hooks":[{"command":"x","timeout":"5"}]}],"SessionDelete":1}}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzAgentFile(t, parseQwenFile, data, "qwen", "qwen") })
}

func FuzzParseFactorySettings(f *testing.F) {
	f.Add([]byte(`{"hooks":{"PreToolUse":[{"matcher":"Execute|Create","commandRegex":"rm","hooks":[{"type":"command","command":"a","timeout":3}]}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzAgentFile(t, parseFactoryFile, data, "factory", "factory") })
}

func FuzzParseCursorHooks(f *testing.F) {
	f.Add([]byte(`{"version":1,"hooks":{"beforeShellExecution":[{"command":"x","timeout":1.5,"failClosed":true}]}}`))
	f.Add([]byte(`{"hooks":{"preToolUse":[{"command":"x","matcher":"(Shell"},{"type":"prompt","prompt":7}],"stop":[1]}}`))
	f.Add([]byte(`{"hooks":{"beforeShellExecution":[{"comand":"x","failClosed":true},{"type":1,"failClosed":true}],"stop":[{"failClosed":true}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzAgentFile(t, parseCursorFile, data, cursorDialect, "cursor") })
}

// fuzzEntryLimit is the cap the fuzzed parsers read under, as a project's
// files are read (MaxProjectEntries, made small enough to be reached).
const fuzzEntryLimit = 3

// fuzzAgentFile: no hook file may panic its parser; every entry it returns
// has a command, the file's dialect and its agent, and there are no more
// of them than the cap.
func fuzzAgentFile(t *testing.T, parse func([]byte, string, int) ([]*Entry, []Warning, error), data []byte, dialect protocol.Dialect, agent string) {
	entries, warnings, err := parse(data, "fuzz.json", fuzzEntryLimit)
	again, warningsAgain, errAgain := parse(data, "fuzz.json", fuzzEntryLimit)
	if was, is := readAs(entries, warnings, err), readAs(again, warningsAgain, errAgain); was != is {
		t.Fatalf("the same bytes read as:\n%s\nthen as:\n%s", was, is)
	}
	if err != nil {
		checkNoPanic(t, err)
		checkRefusedAt(t, err, "", data)
		return
	}
	if len(entries) > fuzzEntryLimit {
		t.Fatalf("%d entries read under a cap of %d", len(entries), fuzzEntryLimit)
	}
	for _, e := range entries {
		if e.Dialect != dialect || e.Text() == "" || e.FileOf != agent || e.RunBy != "" && e.RunBy != agent || e.Event == nil {
			t.Fatalf("bad entry %+v", e)
		}
		checkUnreadable(t, e)
	}
}

// cursorDialect is the dialect the entries of a Cursor hooks.json carry
// (their codec's).
const cursorDialect protocol.Dialect = "cursor"

// The agent hook files a repository's hooks file names share one budget
// of MaxProjectFileBytes: each may be up to that size, but a hooks file can
// name one 1 MiB file a hundred thousand times, and every one-shot dispatch
// read and parsed them all (200 names: 6.7 s per dispatch, and the answer
// came long after the agent's deadline, which for Claude Code lets the
// call through). Past the budget the project is unloaded, naming the file.
func TestProjectAgentFilesShareOneBudget(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	settings := `{"hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"./g.sh"}]}]},"pad":"` +
		strings.Repeat("x", MaxProjectFileBytes/3) + `"}`
	writeFiles(t, dir, map[string]string{
		"repo/.git/HEAD":          "ref: refs/heads/main\n",
		"repo/.hermes/hooks.yaml": "claude_settings: [s.json, s.json]\n",
		"repo/s.json":             settings,
		"home/config.yaml":        "",
	})
	cfg, err := Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo})
	if err != nil || len(cfg.Listed) != 2 || len(cfg.Unloaded) != 0 {
		t.Fatalf("two thirds of the budget: %v, listed %d, unloaded %+v", err, len(cfg.Listed), cfg.Unloaded)
	}
	writeFiles(t, dir, map[string]string{"repo/.hermes/hooks.yaml": "claude_settings: [s.json, s.json, s.json, s.json]\n"})
	cfg, err = Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Unloaded) == 0 || !strings.Contains(cfg.Unloaded[0].Err.Error(), "together") {
		t.Fatalf("past the budget: listed %d, unloaded %+v", len(cfg.Listed), cfg.Unloaded)
	}
	// A tiny file named a hundred thousand times costs no bytes but
	// 100,000 reads (1 s per dispatch): the files are counted too.
	writeFiles(t, dir, map[string]string{
		"repo/e.json":             "{}",
		"repo/.hermes/hooks.yaml": "claude_settings: [" + strings.Repeat("e.json, ", MaxProjectAgentFiles) + "e.json]\n",
	})
	cfg, err = Load(filepath.Join(dir, "home", "config.yaml"), LoadOptions{ProjectDir: repo})
	if err != nil {
		t.Fatal(err)
	}
	if len(cfg.Unloaded) != 1 || !strings.Contains(cfg.Unloaded[0].Err.Error(), "at most 256 agent hook files") {
		t.Fatalf("past the count: unloaded %+v", cfg.Unloaded)
	}
}
