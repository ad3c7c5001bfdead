package agents

import (
	"regexp"
	"strings"
	"sync"
	"unicode"

	"github.com/hermes-hooks/hermes-hooks/internal/pattern"
)

// qwenMatcher turns a matcher of a Qwen settings file into one hookconfig
// reads (Claude Code's: "*", a list of names, else an unanchored
// JavaScript regex) that selects what Qwen 0.24's matchesHookPattern
// selects. Its hooks see Qwen's runtime tool ids (claudeRenamed), and
// Qwen's rule is:
//
//   - "", "*" and ".*" (edges trimmed) match everything, as "" and "*" do
//     here;
//   - the matcher, or one of its "|" alternatives (split outside groups
//     and classes, when it does not start with "^" or "("), equal to the
//     subject or, on the tool events, to one of the tool's aliases
//     (display name, display name + "Tool", Claude Code's name, legacy
//     names: Bash, Shell, ShellTool for run_shell_command), matches;
//   - else the matcher (its trimmed alternatives joined by "|") is an
//     unanchored JavaScript regex tested on the subject, even a plain word
//     ("shell" matches run_shell_command); one JavaScript rejects matches
//     nothing.
//
// So the result is "^(?:ids)$|(?:regex)": the aliases as the runtime ids
// they name, anchored; the regex kept, grouped so that it is never read
// as a list of names. (A subject equal to a matcher with regex syntax in
// it that does not match itself as a regex is not matched: no tool, agent
// type or trigger of Qwen's is named so.)
func qwenMatcher(event, m string) string {
	p := strings.TrimFunc(m, unicode.IsSpace)
	switch p {
	case "":
		return ""
	case "*", ".*":
		return "*"
	}
	alts, expr := []string{p}, p
	if strings.Contains(p, "|") && !strings.HasPrefix(p, "^") && !strings.HasPrefix(p, "(") {
		alts = alts[:0]
		for _, a := range qwenSplitAlternatives(p) {
			if a = strings.TrimFunc(a, unicode.IsSpace); a != "" {
				if a == "*" || a == ".*" {
					return "*"
				}
				alts = append(alts, a)
			}
		}
		if len(alts) == 0 {
			return "(?!)" // Qwen: no alternative left matches nothing
		}
		expr = strings.Join(alts, "|")
	}
	toolEvent := qwenToolEvents[event]
	var exact []string
	for _, a := range alts {
		id := a
		if toolEvent {
			if q, ok := qwenAliases()[a]; ok {
				id = q
			}
		}
		if id != a { // an alias: a name the regex alone would miss
			exact = append(exact, regexp.QuoteMeta(id))
		}
	}
	var out []string
	if len(exact) > 0 {
		out = append(out, "^(?:"+strings.Join(exact, "|")+")$")
	}
	if _, err := pattern.CompileJS(expr); err == nil {
		out = append(out, "(?:"+expr+")")
	} else if len(out) == 0 {
		return m // hookconfig says it never matches, as Qwen does
	}
	return strings.Join(out, "|")
}

// qwenToolEvents are the events whose matcher is tested on a tool name
// (with the tool's aliases).
var qwenToolEvents = map[string]bool{
	"PreToolUse": true, "PostToolUse": true, "PostToolUseFailure": true,
	"PermissionRequest": true, "PermissionDenied": true,
}

// qwenSplitAlternatives splits a matcher on "|" outside groups, character
// classes and escapes.
func qwenSplitAlternatives(p string) []string {
	var parts []string
	var cur strings.Builder
	escaped, class, depth := false, false, 0
	for _, r := range p {
		switch {
		case escaped:
			escaped = false
		case r == '\\':
			escaped = true
		case class:
			class = r != ']'
		case r == '[':
			class = true
		case r == '(':
			depth++
		case r == ')':
			depth = max(0, depth-1)
		case r == '|' && depth == 0:
			parts = append(parts, cur.String())
			cur.Reset()
			continue
		}
		cur.WriteRune(r)
	}
	return append(parts, cur.String())
}

// qwenAliases maps every name Qwen 0.24 takes for one of its tools in a
// hook matcher to the tool's runtime id: the id, its display name, the
// display name + "Tool", and the older and Claude Code names it keeps.
var qwenAliases = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, t := range []struct {
		id, display string
		more        []string
	}{
		{"run_shell_command", "Shell", []string{"Bash"}},
		{"edit", "Edit", []string{"replace"}},
		{"write_file", "WriteFile", []string{"Write"}},
		{"read_file", "ReadFile", []string{"Read"}},
		{"grep_search", "Grep", []string{"search_file_content", "SearchFiles"}},
		{"glob", "Glob", []string{"FindFiles"}},
		{"list_directory", "ListFiles", []string{"ReadFolder"}},
		{"todo_write", "TodoList", []string{"TodoWrite", "TodoWriteTool"}},
		{"web_fetch", "WebFetch", nil},
		{"web_search", "WebSearch", nil},
		{"agent", "Agent", []string{"task", "Task", "TaskTool"}},
		{"skill", "Skill", nil},
		{"notebook_edit", "NotebookEdit", nil},
		{"ask_user_question", "AskUserQuestion", nil},
		{"exit_plan_mode", "ExitPlanMode", nil},
		{"enter_plan_mode", "EnterPlanMode", nil},
		{"save_memory", "SaveMemory", nil},
		{"monitor", "Monitor", nil},
		{"lsp", "Lsp", nil},
		{"exec", "Exec", nil},
		{"zoom_image", "ZoomImage", nil},
	} {
		for _, n := range append([]string{t.id, t.display, t.display + "Tool"}, t.more...) {
			m[n] = t.id
		}
	}
	return m
})
