package hookconfig

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

var (
	parseWindsurfFile = parserOf("windsurf")
	parseClineFile    = parserOf("cline")
)

// TestWindsurfHooksFile: a Windsurf hooks.json's hooks speak Windsurf's
// protocol, each tool event's hook matching its one kind of action; ours
// and unknown events are skipped.
func TestWindsurfHooksFile(t *testing.T) {
	data := `{"hooks":{"pre_run_command":[{"command":"./g.sh","show_output":true,"working_directory":"tools"},
		{"command":"'/usr/local/bin/hermes-hooks' hook windsurf pre_run_command","show_output":true}],
		"pre_user_prompt":[{"command":"./p.sh","color":"red"}],
		"post_setup_worktree":[{"command":"./w.sh"}]}, "other": 1}`
	entries, warns, err := parseWindsurfFile([]byte(data), "/h/.codeium/windsurf/hooks.json", 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		v := view(e)
		got = append(got, strings.Join([]string{v.event, v.declared, v.command, v.matcher, string(v.dialect), v.fileOf}, " | "))
	}
	want := []string{
		"pre_tool_call | pre_run_command | cd 'tools' && ./g.sh | run_command | windsurf | windsurf",
		"pre_llm_call | pre_user_prompt | ./p.sh |  | windsurf | windsurf",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var ws []string
	for _, w := range warns {
		ws = append(ws, w.String())
	}
	for _, w := range []string{"color: not a Windsurf hook's key; ignored", "post_setup_worktree"} {
		if !strings.Contains(strings.Join(ws, "\n"), w) {
			t.Errorf("warnings lack %q: %q", w, ws)
		}
	}
	run := entries[0]
	for tool, fits := range map[string]bool{"terminal": true, "read_file": false, "mcp_s_t": false} {
		if got := run.Matches(map[string]any{"tool_name": tool}, nil); got != fits {
			t.Errorf("a pre_run_command hook fits %s: %v, want %v", tool, got, fits)
		}
	}
	if !entries[1].Matches(map[string]any{"prompt": "x"}, nil) || entries[1].Codec == nil || entries[1].Codec.Dialect() != "windsurf" {
		t.Errorf("prompt entry: %+v", entries[1])
	}
}

// TestClineHooksFolder: each executable of a Cline hooks folder named after
// an event is that event's one hook, run as it is; the scripts install
// writes, other files and non-executables are not.
func TestClineHooksFolder(t *testing.T) {
	dir := t.TempDir()
	hooks := filepath.Join(dir, "proj", ".clinerules", "hooks")
	write := func(name, body string, mode os.FileMode) {
		t.Helper()
		if err := os.MkdirAll(hooks, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(hooks, name), []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	if runtime.GOOS == "windows" {
		t.Skip("Cline's Windows rule: TestClineHooksFolderWindows")
	}
	ext := ""
	write("PreToolUse"+ext, "#!/bin/sh\necho '{}'\n", 0o755)
	write("TaskResume"+ext, "#!/bin/sh\nexit 0\n", 0o755)
	write("TaskStart"+ext, string(agents.Script("'/usr/bin/hermes-hooks' hook cline TaskStart")), 0o755)
	// Today's absolute form, behind the guard that answers when the
	// program is gone: ours too, never read back as the user's hook.
	cline, _ := agents.Lookup("cline")
	write("TaskCancel"+ext, string(agents.Script(cline.HookCommand("/usr/bin/hermes-hooks", "TaskCancel"))), 0o755)
	write("PostToolUse", "#!/bin/sh\n", 0o644)
	write("README.md", "notes", 0o755)
	cfg := loadClineHooks(t, dir, "proj/.clinerules/hooks")
	var got []string
	for _, e := range cfg.Entries {
		got = append(got, e.DeclaredAs+" "+e.Command+" "+e.Matcher+" "+string(e.Dialect)+" "+e.Scope.Project)
	}
	proj := filepath.Join(dir, "proj")
	want := []string{
		"PreToolUse '" + filepath.Join(hooks, "PreToolUse"+ext) + "'  cline " + proj,
		"TaskResume '" + filepath.Join(hooks, "TaskResume"+ext) + "' TaskResume cline " + proj,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("entries:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	warns := ""
	for _, w := range cfg.Warnings {
		warns += w.String() + "\n"
	}
	if !strings.Contains(warns, filepath.Join(hooks, "PostToolUse")+": not an executable file; Cline does not run it; skipped") || strings.Contains(warns, "README") {
		t.Errorf("warnings:\n%s", warns)
	}
	if len(cfg.AgentFiles["cline"]) != 1 {
		t.Errorf("files read: %v", cfg.AgentHookFiles())
	}
	resume := cfg.Entries[1]
	if !resume.Matches(map[string]any{"source": "resume"}, nil) || resume.Matches(map[string]any{"source": "startup"}, nil) {
		t.Error("the TaskResume hook does not tell a resumed session from a new one")
	}
}

func FuzzParseWindsurfHooks(f *testing.F) {
	f.Add([]byte(`{"hooks":{"pre_read_code":[{"command":"x","show_output":true,"working_directory":"a b"}]}}`))
	f.Add([]byte(`{"hooks":{"pre_run_command":[{"command":7,"working_directory":[1]}],"post_cascade_response":{}}}`))
	f.Fuzz(func(t *testing.T, data []byte) { fuzzAgentFile(t, parseWindsurfFile, data, "windsurf", "windsurf") })
}

func FuzzParseClineHookFile(f *testing.F) {
	f.Add("PreToolUse", []byte("#!/bin/sh\necho '{}'\n"))
	f.Add("TaskStart", agents.Script("'/b/hermes-hooks' hook cline TaskStart"))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		if strings.ContainsAny(name, "/\x00") || name == "" || name == "." || name == ".." {
			return
		}
		fuzzAgentFile(t, func(d []byte, p string, l int) ([]*Entry, []Warning, error) {
			return parseClineFile(d, filepath.Join("/p/.clinerules/hooks", name), l)
		}, data, "cline", "cline")
	})
}

// TestCopilotFileMatcherLegacyNames: a Copilot hook file's hooks carry
// Copilot's codec (their replies are Copilot's) but their matchers still
// read as Claude Code's, Task↔Agent and the other renames included, as
// they did when the file was read in the Claude dialect.
func TestCopilotFileMatcherLegacyNames(t *testing.T) {
	data := `{"version":1,"hooks":{"PreToolUse":[{"type":"command","bash":"./g.sh","matcher":"Task"}]}}`
	entries, _, err := parserOf("copilot")([]byte(data), "/r/.github/hooks/h.json", 0)
	if err != nil || len(entries) != 1 {
		t.Fatalf("entries %v, %v", entries, err)
	}
	e := entries[0]
	if e.Codec == nil {
		t.Fatal("a Copilot hook file's entry carries no codec")
	}
	for tool, fits := range map[string]bool{"Task": true, "Agent": true, "delegate_task": true, "Bash": false} {
		if got := e.Matches(map[string]any{"tool_name": tool}, nil); got != fits {
			t.Errorf("matcher Task fits %s: %v, want %v", tool, got, fits)
		}
	}
}

// TestCopilotCamelMatcherClaudeNames: on a camelCase event a matcher
// written with one of Claude Code's names of a tool Copilot names another
// way (Agent for task, PowerShell, MultiEdit for edit) fits the tool's
// calls, as a list of names matched before the matcher was compared with
// Copilot's runtime names (and as Bash still fits bash).
func TestCopilotCamelMatcherClaudeNames(t *testing.T) {
	for matcher, tools := range map[string]map[string]bool{
		"Agent":      {"Task": true, "Agent": true, "delegate_task": true, "Bash": false},
		"PowerShell": {"PowerShell": true, "Read": false},
		"MultiEdit":  {"MultiEdit": true, "Read": false},
		"Bash":       {"Bash": true, "terminal": true, "Read": false},
	} {
		data := `{"version":1,"hooks":{"preToolUse":[{"type":"command","bash":"./g.sh","matcher":"` + matcher + `"}]}}`
		entries, _, err := parserOf("copilot")([]byte(data), "/r/.github/hooks/h.json", 0)
		if err != nil || len(entries) != 1 {
			t.Fatalf("entries %v, %v", entries, err)
		}
		for tool, fits := range tools {
			if got := entries[0].Matches(map[string]any{"tool_name": tool}, nil); got != fits {
				t.Errorf("preToolUse matcher %s fits %s: %v, want %v", matcher, tool, got, fits)
			}
		}
	}
}
