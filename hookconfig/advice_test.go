package hookconfig

import (
	"strings"
	"testing"
)

func adviceOf(t *testing.T, yml string) string {
	t.Helper()
	var b strings.Builder
	for _, w := range mustParse(t, yml).Advice() {
		b.WriteString(w.Key + " | " + w.String())
		if w.Minor {
			b.WriteString(" (minor)")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// A matcher written in the other dialect's tool names never matches:
// validate says which name the matcher sees and, in the YAML, which event
// name would make the written one right.
func TestAdviceToolNames(t *testing.T) {
	for _, tc := range []struct{ name, yml, want string }{
		{"claude name under a hermes event", "hooks:\n  pre_tool_call:\n    - command: /g.sh\n      matcher: Bash\n",
			"hooks.pre_tool_call[0].matcher | hooks.pre_tool_call[0].matcher: 'Bash' is a Claude Code tool name, but a pre_tool_call matcher sees Hermes tool names, so it never matches: write `terminal`, or use the Claude event name PreToolUse\n"},
		{"claude variant", "hooks:\n  post_tool_call:\n    - command: /g.sh\n      matcher: MultiEdit\n",
			"write `patch`, or use the Claude event name PostToolUse"},
		{"one claude name of an alternation", "hooks:\n  pre_tool_call:\n    - command: /g.sh\n      matcher: terminal|Write\n",
			"'Write' is a Claude Code tool name"},
		{"hermes name under a claude event in the yaml", "hooks:\n  PreToolUse:\n    - command: /g.sh\n      matcher: terminal\n",
			"hooks.PreToolUse[0].matcher: 'terminal' is a Hermes tool name, but a PreToolUse matcher sees Claude Code tool names, so it never matches: write `Bash`, or use the Hermes event name pre_tool_call\n"},
		{"hermes name in a pasted claude group", "hooks:\n  PreToolUse:\n    - matcher: read_file,Edit\n      hooks:\n        - type: command\n          command: /g.sh\n",
			"'read_file' is a Hermes tool name"},
		{"dialect claude under a hermes event", "hooks:\n  pre_tool_call:\n    - command: /g.sh\n      dialect: claude\n      matcher: terminal\n",
			"write `Bash`\n"},
		// Other agents' own names reach a matcher renamed (agents' tool
		// tables): a Hermes matcher sees the canonical name, a Claude one
		// Claude Code's.
		{"another agent's name under a hermes event", "hooks:\n  pre_tool_call:\n    - command: /g.sh\n      matcher: run_shell_command|Shell\n",
			"hooks.pre_tool_call[0].matcher | hooks.pre_tool_call[0].matcher: 'run_shell_command' is Gemini CLI's own tool name, which reaches a pre_tool_call matcher as terminal, so it never matches: write `terminal`\n"},
		{"another agent's name after a right one", "hooks:\n  pre_tool_call:\n    - command: /g.sh\n      matcher: write_file|Shell\n",
			"'Shell' is Qwen Code's own tool name, which reaches a pre_tool_call matcher as terminal, so it never matches: write `terminal`"},
		{"another agent's name under a claude event", "hooks:\n  PreToolUse:\n    - command: /g.sh\n      matcher: execute_bash\n",
			"'execute_bash' is Kiro CLI's own tool name, which reaches a PreToolUse matcher as Bash, so it never matches: write `Bash`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := adviceOf(t, tc.yml); !strings.Contains(got, tc.want) {
				t.Fatalf("advice:\n%s\nwant it to hold %q", got, tc.want)
			}
		})
	}
}

// What is not advised about: names in their own dialect, both twins
// written, regexes, events whose matcher is not a tool name, and a pair
// the user's tool_aliases removed.
func TestAdviceToolNamesQuiet(t *testing.T) {
	for _, yml := range []string{
		"hooks:\n  pre_tool_call:\n    - command: /g.sh\n      matcher: terminal\n",
		"hooks:\n  pre_tool_call:\n    - command: /g.sh\n      matcher: terminal|Bash\n",
		"hooks:\n  pre_tool_call:\n    - command: /g.sh\n      matcher: 'Ba.*'\n",
		"hooks:\n  PreToolUse:\n    - command: /g.sh\n      matcher: Bash|Edit\n",
		"hooks:\n  PreToolUse:\n    - command: /g.sh\n      matcher: '^term'\n",
		"hooks:\n  PreToolUse:\n    - command: /g.sh\n      matcher: mcp__github__create_issue\n",
		"hooks:\n  SessionStart:\n    - command: /g.sh\n      matcher: terminal\n",
		"tool_aliases:\n  terminal: ''\nhooks:\n  pre_tool_call:\n    - command: /g.sh\n      matcher: Bash\n",
		// Another agent's name beside the name it reaches the matcher as,
		// a name no agent renames (read_many_files reaches it as it is),
		// and a canonical name some agent also calls its own (write_file).
		"hooks:\n  pre_tool_call:\n    - command: /g.sh\n      matcher: terminal|run_shell_command\n",
		"hooks:\n  pre_tool_call:\n    - command: /g.sh\n      matcher: read_many_files\n",
		"hooks:\n  pre_tool_call:\n    - command: /g.sh\n      matcher: write_file|read_file\n",
		"hooks:\n  PreToolUse:\n    - command: /g.sh\n      matcher: Bash|execute_bash\n",
	} {
		if got := adviceOf(t, yml); got != "" {
			t.Errorf("%q: unexpected advice:\n%s", yml, got)
		}
	}
}

// The first relative file a command runs, judged without running it.
func TestRelativePath(t *testing.T) {
	for _, tc := range []struct{ command, want string }{
		{"./guard.sh", "./guard.sh"},
		{"hooks/guard.sh --strict", "hooks/guard.sh"},
		{"FOO=1 ../x/guard.sh", "../x/guard.sh"},
		{"python3 hooks/guard.py", "hooks/guard.py"},
		{"python3 -u guard.py", "guard.py"},
		{"node ./g.mjs", "./g.mjs"},
		{"bash ./g", "./g"},
		{"/abs/guard.sh ./relative-arg.sh", "./relative-arg.sh"},
		{"/abs/guard.sh", ""},
		{"~/hooks/guard.sh", ""},
		{"guard.sh", ""}, // found on PATH
		{"jq -r .tool_input.command", ""},
		{"grep -q a/b", ""},
		{"$HOME/hooks/guard.sh", ""},
		{`"$CLAUDE_PROJECT_DIR"/.claude/hooks/g.sh`, ""},
		{"cd /x && ./g.sh", ""},
		{"echo 'unterminated", ""},
		{"", ""},
	} {
		if got := relativePath(tc.command); got != tc.want {
			t.Errorf("relativePath(%q) = %q, want %q", tc.command, got, tc.want)
		}
	}
}

// A relative command in a user-level file is a minor warning with the fix,
// located at its command.
func TestAdviceRelativeCommand(t *testing.T) {
	got := adviceOf(t, "hooks:\n  pre_tool_call:\n    - command: ./guard.sh\n")
	want := "hooks.pre_tool_call[0].command | hooks.pre_tool_call[0].command runs './guard.sh', a path relative to whatever directory the agent is working in when the event fires, so the hook finds its file only there: write the absolute path, or one starting with ~/ (minor)\n"
	if got != want {
		t.Fatalf("advice:\n%s\nwant:\n%s", got, want)
	}
	// A repository's hooks run in its root: relative is right there.
	cfg := mustParse(t, "hooks:\n  pre_tool_call:\n    - command: ./guard.sh\n")
	cfg.Entries[0].WorkDir = "/repo"
	if a := cfg.Advice(); len(a) != 0 {
		t.Fatalf("project hook advised: %v", a)
	}
}

// Near misses of Claude Code's keys in a settings file: warnings located
// in that file (File, and Key without the file name), with the key meant.
func TestClaudeSettingsNearKeys(t *testing.T) {
	data := `{"hooks": {"PreToolUse": [{"matchers": "Bash", "hooks": [{"type": "command", "command": "/g.sh",
	  "timeOut": 5, "comand": "x", "statusMessage": "s", "someFutureKey": 1}]}]}}`
	_, warnings, err := ParseAgentFile("claude", []byte(data), "/p/settings.json")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range warnings {
		if w.File != "/p/settings.json" {
			t.Errorf("warning %q: File = %q", w.String(), w.File)
		}
		got = append(got, w.Key+" | "+w.Message)
	}
	want := []string{
		"hooks.PreToolUse[0].matchers | unknown key 'matchers' is ignored by Claude Code — did you mean 'matcher'?",
		"hooks.PreToolUse[0].hooks[0].comand | unknown key 'comand' is ignored by Claude Code — did you mean 'command'?",
		"hooks.PreToolUse[0].hooks[0].timeOut | unknown key 'timeOut' is ignored by Claude Code — did you mean 'timeout'?",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A settings file's schema error says what was found where a list was
// expected; its syntax error has its line and column.
func TestClaudeSettingsErrorsLocated(t *testing.T) {
	_, warnings, err := ParseAgentFile("claude", []byte(`{"hooks": {"PreToolUse": {"matcher": "Bash"}}}`), "/p/s.json")
	if err != nil || len(warnings) != 1 || !strings.Contains(warnings[0].Message, "must be a list of matcher groups") ||
		!strings.Contains(warnings[0].Message, "not an object") || warnings[0].File != "/p/s.json" {
		t.Fatalf("warnings %+v, err %v", warnings, err)
	}
	for _, tc := range []struct {
		data      string
		line, col int
	}{
		{"{\n  \"hooks\": {\"PreToolUse\": [\n    {\"matcher\" \"Bash\"}]}}", 3, 16},
		{"{\"hooks\": {\"PreToolUse\": [", 1, 27},
		{"{\n  \"é\": 1,,\n}", 2, 10},
	} {
		_, _, err := ParseAgentFile("claude", []byte(tc.data), "/p/s.json")
		ce, ok := err.(*ConfigError)
		if !ok || ce.Line != tc.line || ce.Column != tc.col {
			t.Errorf("%q: err %#v, want line %d column %d", tc.data, err, tc.line, tc.col)
		}
	}
}
