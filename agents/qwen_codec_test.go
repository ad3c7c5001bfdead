package agents

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/hermes-hooks/hermes-hooks/internal/pattern"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// TestQwenCodecReadsAsQwen: a Qwen settings file's hook is read as Qwen
// Code 0.24's hook runner reads it (stdout, else stderr, as JSON at any
// exit but 2; exit 2: stderr) and its output classes read it
// (PreToolUseHookOutput.getPermissionDecision: hookSpecificOutput's
// permissionDecision without hookEventName, else the top-level decision;
// DefaultHookOutput.isBlockingDecision: "block" or "deny").
func TestQwenCodecReadsAsQwen(t *testing.T) {
	codec := qwen(t).Source.Codec
	for _, tc := range []struct {
		name, declared, canon string
		exit                  int
		stdout, stderr        string
		want                  protocol.Decision
		msg                   string
	}{
		{"top-level deny", "PreToolUse", "pre_tool_call", 0, `{"decision":"deny","reason":"x"}`, "", protocol.DecisionBlock, "x"},
		{"top-level block", "PreToolUse", "pre_tool_call", 0, `{"decision":"block","reason":"x"}`, "", protocol.DecisionBlock, "x"},
		{"top-level ask", "PreToolUse", "pre_tool_call", 0, `{"decision":"ask","reason":"why"}`, "", protocol.DecisionAsk, "why"},
		{"hso without hookEventName", "PreToolUse", "pre_tool_call", 0, `{"hookSpecificOutput":{"permissionDecision":"deny","permissionDecisionReason":"r"}}`, "", protocol.DecisionBlock, "r"},
		{"hso reason falls back to reason", "PreToolUse", "pre_tool_call", 0, `{"reason":"r2","hookSpecificOutput":{"permissionDecision":"deny"}}`, "", protocol.DecisionBlock, "r2"},
		{"hso wins over top-level", "PreToolUse", "pre_tool_call", 0, `{"decision":"deny","hookSpecificOutput":{"permissionDecision":"allow"}}`, "", protocol.DecisionAllow, ""},
		{"deny JSON on stderr, exit 0", "PreToolUse", "pre_tool_call", 0, "", `{"decision":"deny","reason":"e"}`, protocol.DecisionBlock, "e"},
		{"deny JSON on stderr, exit 1", "PreToolUse", "pre_tool_call", 1, "", `{"decision":"deny","reason":"e"}`, protocol.DecisionBlock, "e"},
		{"deny JSON on stdout, exit 1", "PreToolUse", "pre_tool_call", 1, `{"decision":"deny","reason":"o"}`, "", protocol.DecisionBlock, "o"},
		{"JSON in a JSON string", "PreToolUse", "pre_tool_call", 0, `"{\"decision\":\"deny\",\"reason\":\"s\"}"`, "", protocol.DecisionBlock, "s"},
		{"exit 2 text", "PreToolUse", "pre_tool_call", 2, "", "no", protocol.DecisionBlock, "no"},
		{"exit 2 reads stderr, not stdout", "PreToolUse", "pre_tool_call", 2, `{"decision":"allow"}`, `{"decision":"deny","reason":"err"}`, protocol.DecisionBlock, "err"},
		{"exit 1 text is a warning", "PreToolUse", "pre_tool_call", 1, "", "oops", "", ""},
		{"broken JSON is ignored", "PreToolUse", "pre_tool_call", 0, `{"decision":"deny"`, "", "", ""},
		{"prompt deny", "UserPromptSubmit", "pre_llm_call", 0, `{"decision":"deny","reason":"p"}`, "", protocol.DecisionBlock, "p"},
		{"prompt block on stderr", "UserPromptSubmit", "pre_llm_call", 0, "", `{"decision":"block","reason":"p"}`, protocol.DecisionBlock, "p"},
		// UserPromptSubmit's consumer reads isBlockingDecision and
		// continue:false only: ask has no effect there.
		{"prompt ask", "UserPromptSubmit", "pre_llm_call", 0, `{"decision":"ask","reason":"p"}`, "", "", ""},
	} {
		ev, _ := protocol.Lookup(tc.canon)
		r := protocol.Reply{Dialect: codec.Dialect(), Event: ev, Command: "./h.sh", ExitCode: tc.exit, Stdout: []byte(tc.stdout), Stderr: []byte(tc.stderr)}
		rd := codec.ReadReply(tc.declared, r)
		var got protocol.Decision
		var msg string
		if rd.Contribution != nil {
			got, msg = rd.Contribution.Decision, rd.Contribution.Message
		}
		if got != tc.want || tc.msg != "" && msg != tc.msg {
			t.Errorf("%s: decision %q message %q, want %q %q (note %q)", tc.name, got, msg, tc.want, tc.msg, rd.Note)
		}
	}
}

// TestQwenMatcherMatches: a matcher of a Qwen settings file selects what
// Qwen's matchesHookPattern selects: the tool's name or one of its aliases
// exactly, else an unanchored JavaScript regex tested on the tool's
// runtime id — plain words included.
func TestQwenMatcherMatches(t *testing.T) {
	for _, tc := range []struct {
		event, matcher, subject string
		want                    bool
	}{
		{"PreToolUse", "run_shell_command", "run_shell_command", true},
		{"PreToolUse", "Bash", "run_shell_command", true},
		{"PreToolUse", "Shell", "run_shell_command", true},
		{"PreToolUse", "ShellTool", "run_shell_command", true},
		{"PreToolUse", "shell", "run_shell_command", true},
		{"PreToolUse", "command", "run_shell_command", true},
		{"PreToolUse", "Edit|shell", "run_shell_command", true},
		{"PreToolUse", "Edit|Write", "run_shell_command", false},
		{"PreToolUse", "write|edit", "write_file", true},
		{"PreToolUse", "file", "write_file", true},
		{"PreToolUse", "Write", "write_file", true},
		{"PreToolUse", "WriteFile, ReadFile", "write_file", false}, // a regex: "WriteFile, ReadFile"
		{"PreToolUse", "WriteFile|ReadFile", "read_file", true},
		{"PreToolUse", "Task", "agent", true},
		{"PreToolUse", "Bash", "write_file", false},
		{"PreToolUse", "^write", "write_file", true},
		{"PreToolUse", "^run_shell_command$", "run_shell_command", true},
		{"PreToolUse", "Bash|(", "run_shell_command", true}, // an invalid regex: the exact names still match
		{"PreToolUse", "Bash|(", "write_file", false},
		{"PreToolUse", "mcp__github__create_issue", "mcp__github__create_issue", true},
		{"PreToolUse", " * ", "write_file", true},
		{"PreToolUse", ".*", "write_file", true},
		{"PreToolUse", "Edit|*", "write_file", true},
		{"SubagentStart", "plan", "planner", true},
		{"PreCompact", "auto", "auto", true},
		{"PreCompact", "manual", "auto", false},
	} {
		m := qwen(t).Source.Matcher(tc.event, tc.matcher)
		if got := qwenMatcherFits(t, m, tc.subject); got != tc.want {
			t.Errorf("%s matcher %q (as %q) on %q = %v, want %v", tc.event, tc.matcher, m, tc.subject, got, tc.want)
		}
	}
}

// qwenMatcherFits applies a converted matcher as hookconfig does to a
// Codec's matcher: "*", a name list, else a JavaScript regex.
func qwenMatcherFits(t *testing.T, m, subject string) bool {
	t.Helper()
	switch {
	case m == "" || m == "*" || m == ".*":
		return true
	case protocol.IsClaudeNameList(m):
		for _, n := range splitNames(m) {
			if n == subject {
				return true
			}
		}
		return false
	}
	rx, err := pattern.CompileJS(m)
	if err != nil {
		return false
	}
	ok, _ := rx.Match(subject, nil)
	return ok
}

// TestQwenDefaultTimeout: a Qwen-file hook without a timeout gets Qwen's
// default for command hooks, 60 s (DEFAULT_COMMAND_HOOK_TIMEOUT_SECONDS),
// and so does one whose timeout Qwen cannot use.
func TestQwenDefaultTimeout(t *testing.T) {
	h := qwen(t).Source.Handler
	for _, tc := range []struct {
		in   map[string]any
		want any
	}{
		{map[string]any{"type": "command", "command": "x"}, "60"},
		{map[string]any{"type": "command", "command": "x", "timeout": json_("30")}, "30"},
		{map[string]any{"type": "command", "command": "x", "timeout": json_("0")}, "60"},
		{map[string]any{"type": "command", "command": "x", "timeout": json_("-5")}, "60"},
		{map[string]any{"type": "command", "command": "x", "timeout": json_("5000")}, "5"},
	} {
		out := h("PreToolUse", tc.in, func(string) {})
		if got := fmtAny(out["timeout"]); got != tc.want {
			t.Errorf("%v: timeout %v, want %v", tc.in, got, tc.want)
		}
	}
}

func json_(s string) json.Number { return json.Number(s) }

func fmtAny(v any) any {
	if v == nil {
		return nil
	}
	return fmt.Sprint(v)
}

func splitNames(m string) []string {
	var names []string
	for _, p := range strings.FieldsFunc(m, func(r rune) bool { return r == '|' || r == ',' }) {
		names = append(names, strings.TrimSpace(p))
	}
	return names
}
