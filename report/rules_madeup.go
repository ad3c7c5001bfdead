package report

// The made-up calls validate and doctor try a rule on: a call of a tool
// no agent names (a rule every tool's call reaches), and a plain call of
// each common tool as each host sends it. A rule that errs on one decides
// nothing on every call like it, while its examples, each naming the key
// it reads, all pass.

import (
	"context"
	"errors"
	"maps"
	"regexp"
	"strings"
	"sync"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/rule"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// anyTool is the tool anyToolError's call is made with: no agent names a
// tool so.
const anyTool = "hermes_hooks_any_other_tool"

// anyToolError says, for a rule entry whose matcher lets every tool's call
// through (none, or one such as .*), that it errs on a call of another
// tool with no arguments ("" when it does not, or when its matcher or its
// event has no tool). Such a rule was written for one tool's arguments
// (args.command) and reads them strictly: on a Read or a Write it errs,
// and with fail_closed it blocks them all — an agent that can no longer
// read a file — which its own examples, all of its tool, never show.
func anyToolError(ctx context.Context, e *hookconfig.Entry, tools *protocol.ToolTable, cwd string) string {
	if e.Rule() == nil {
		return "" // a process hook: its smoke run says what it does
	}
	fields, _ := e.Event.SyntheticFields()
	if f := protocol.NewFiring(e.Event, "", fields); !f.HasTool {
		return "" // an event with no tool: no other tool's call to reach it
	}
	ex := &hookconfig.Example{Tool: anyTool, Args: map[string]any{}}
	var ev exampleEval
	o := ev.outcome(ctx, e, ex, tools, cwd)
	if len(o.Hooks) == 0 || o.Hooks[0].Error == "" || ev.stopped != nil {
		return "" // not selected, no error, or cut short by its bound (not this)
	}
	matcher := "no matcher"
	if e.Matcher != "" {
		matcher = "matcher: " + e.Matcher
	}
	then := "it then decides nothing there, and each error is journaled"
	switch {
	case e.FailClosed && e.Shadow:
		then = "in mode: shadow it then decides nothing there, and records that it would block that call (fail_closed) once enforced"
	case e.FailClosed:
		then = "fail_closed then blocks that call"
	}
	return "every tool's call reaches it (" + matcher + "), and another tool's call makes it err (" +
		strings.TrimPrefix(o.Hooks[0].Error, "rule: ") + "): " + then +
		"; give it a matcher for the tools it is written for"
}

// madeUpCalls are a call of each common tool as its host sends it:
// Hermes' tools with Hermes' argument names, Claude Code's with Claude's.
// A rule for write_file that reads args.file_path errs on Hermes' call
// (which says path), one under PreToolUse for Write that reads args.path
// on Claude Code's, and one for write_file that reads args.path on Claude
// Code's too: `hermes-hooks hook claude` runs it on Claude Code's Write.
var madeUpCalls = []struct {
	tool string
	// claude: the call as Claude Code sends it, the only ones tried for
	// an entry declared under a Claude Code event name; an entry under a
	// Hermes name gets both hosts' (madeUpCallError).
	claude bool
	args   map[string]any // cloned for each use: a firing may add keys to its args
}{
	{"terminal", false, map[string]any{"command": "echo hello"}},
	{"read_file", false, map[string]any{"path": "README.md"}},
	{"write_file", false, map[string]any{"path": "notes.txt", "content": "hello"}},
	{"patch", false, map[string]any{"mode": "replace", "path": "notes.txt", "old_string": "a", "new_string": "b"}},
	{"web_search", false, map[string]any{"query": "hello"}},
	{"web_extract", false, map[string]any{"urls": []any{"https://example.com/"}}},
	{"Read", true, map[string]any{"file_path": "README.md"}},
	{"Write", true, map[string]any{"file_path": "notes.txt", "content": "hello"}},
	{"Edit", true, map[string]any{"file_path": "notes.txt", "old_string": "a", "new_string": "b"}},
	{"WebFetch", true, map[string]any{"url": "https://example.com/", "prompt": "summarise"}},
}

// madeUpCallError says that a rule entry errs on a made-up call its
// matcher selects: its event's synthetic payload (what test and doctor
// send: for a tool event, a terminal call), else, on a tool event, the
// first of madeUpCalls it selects that makes it err ("" when none errs,
// or the event has no made-up call). The call is one of those the rule is written for, so
// the key it lacks is one such calls lack: a misspelt args.comand, or a
// key read without ?. — and the rule then decides none of them, while its
// examples (each naming the key) all pass.
func madeUpCallError(ctx context.Context, e *hookconfig.Entry, tools *protocol.ToolTable, cwd string) string {
	if tools == nil {
		tools = protocol.DefaultTools()
	}
	fields, ok := e.Event.SyntheticFields()
	if !ok {
		return ""
	}
	if e.Matches(fields, tools) {
		return madeUpErr(ctx, e, tools, cwd, fields)
	}
	if !e.Event.Tool {
		return ""
	}
	// An entry under a Claude Code name is Claude Code's; one under a
	// Hermes name also decides the calls of every agent that runs
	// `hermes-hooks hook`, Claude Code's among them: Hermes' calls first.
	claude := protocol.IsClaudeName(e.DeclaredAs)
	for _, c := range madeUpCalls {
		if claude && !c.claude {
			continue
		}
		fields["tool_name"], fields["args"] = c.tool, maps.Clone(c.args)
		if !e.Matches(fields, tools) {
			continue
		}
		if w := madeUpErr(ctx, e, tools, cwd, fields); w != "" {
			return w
		}
	}
	return ""
}

// madeUpErr is madeUpCallError's warning for one made-up call.
func madeUpErr(ctx context.Context, e *hookconfig.Entry, tools *protocol.ToolTable, cwd string, fields map[string]any) string {
	r, err := rule.Compile(e.Rule().Source)
	if err != nil {
		return ""
	}
	f := protocol.NewFiring(e.Event, "", fields)
	f.Bind(tools, cwd, nil)
	if _, err = r.Eval(ctx, rule.InputOf(&f, "")); err == nil || errors.Is(err, rule.ErrTimeout) || errors.Is(err, rule.ErrQuarantined) {
		return ""
	}
	if missingHostKey(e.Rule().Source, err) {
		// payload is the host's fields, which the made-up call has few of:
		// a Claude Code tool_input, a Windsurf prompt are there in every
		// real call.
		return ""
	}
	call := "a made-up " + e.Event.Name + " call"
	if f.HasTool {
		call = "a made-up " + f.HostTool + " call (args " + string(pyjson.Encode(f.Args, pyjson.Compact)) + ")"
	}
	then := "it decides nothing on such calls, and each error is journaled"
	switch {
	case e.FailClosed && e.Shadow:
		// A shadow entry's reply never reaches the fold, a failed-closed
		// block included: it only records what it would do.
		then = "in mode: shadow it decides nothing on such calls, and records that it would block each (fail_closed) once enforced"
	case e.FailClosed:
		then = "fail_closed then blocks each such call"
	}
	// A missing key is a misspelling or a key such calls lack; any other
	// error (a type, a division by zero, an index) is in what the rule
	// does with a value the call has.
	fix := "check what it does with the values it reads"
	if strings.Contains(err.Error(), "no key ") {
		fix = "check the spelling of the keys it reads"
	}
	if _, path := f.ArgsMap()["path"]; path && strings.Contains(err.Error(), `no key "file_path"`) ||
		!path && strings.Contains(err.Error(), `no key "path"`) {
		// Not args?.path ?? args?.file_path: a model can add the key its
		// host does not read beside the one it does, and that form then
		// judges the decoy (docs/config.md, "One shape per kind of
		// argument").
		fix = "Hermes names a file tool's file path, Claude Code file_path, and a call can carry both: " +
			"judge each, as any([args?.path ?? \"\", args?.file_path ?? \"\"], …) does"
	}
	return call + " makes it err (" + err.Error() + "): " + then + ": " + fix
}

// accessRoot matches the access a rule error's column points into (its
// key, after the dot or bracket): the name it starts from, then members.
var accessRoot = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_]*)(?:\??\.[A-Za-z_][A-Za-z0-9_]*|\[[^\]]*\])*\??[.\[]?$`)
})

// missingHostKey says that err is a missing key of anything but args (a
// key of payload, say): the made-up call lacks it, a real one may not.
func missingHostKey(src string, err error) bool {
	var re *rule.Error
	if !errors.As(err, &re) || !strings.HasPrefix(re.Msg, `no key "`) || re.Line < 1 || re.Column < 1 {
		return false
	}
	lines := strings.Split(src, "\n")
	if re.Line > len(lines) {
		return false
	}
	line := lines[re.Line-1]
	if re.Column-1 > len(line) {
		return false
	}
	m := accessRoot().FindStringSubmatch(line[:re.Column-1])
	return m == nil || m[1] != "args"
}

// toolNameCompared finds a rule's tool_name compared with a quoted name,
// either way round: tool_name == "terminal", "Bash" != tool_name.
// Compiled at first use: every start (a hook's too) would pay for it.
var toolNameCompared = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\btool_name\s*[!=]=\s*"([^"\\]*)"|"([^"\\]*)"\s*[!=]=\s*tool_name\b`)
})

// toolNameWarning says, for a rule that compares tool_name with a tool's
// name that the hosts spell differently (Hermes' terminal is Claude Code's
// Bash), that it judges one host's calls only: tool_name is the name as
// the host sent it, tool the same name for every agent. An entry under a
// Hermes event name decides every agent's calls (hook claude runs it); one
// under a Claude Code name comparing with a Claude Code name is Claude
// Code's own, and fine.
func toolNameWarning(e *hookconfig.Entry, tools *protocol.ToolTable) string {
	claude := protocol.IsClaudeName(e.DeclaredAs)
	for _, m := range toolNameCompared().FindAllStringSubmatch(e.Rule().Source, -1) {
		name := m[1] + m[2]
		hermes, claudeName := tools.Hermes(name), tools.Claude(name)
		if hermes == name && claudeName == name {
			// An agent's own name its adapter renames (Gemini CLI's
			// run_shell_command is Bash): no call reaches a rule under it.
			if title, renamed, ok := agents.NativeTool(name); ok {
				return `tool_name == "` + name + `" never holds: ` + title + `'s ` + name + ` reaches a rule as ` + tools.Claude(renamed) +
					`: tool is the same name for every agent, tool == "` + tools.Hermes(renamed) + `"`
			}
		}
		if hermes == claudeName || claude && name == claudeName {
			continue // one name everywhere, or Claude Code's own entry
		}
		return `tool_name == "` + name + `" judges only the calls of a host that names the tool ` + name +
			` (Hermes says ` + hermes + `, Claude Code ` + claudeName + `): tool is the same name for every agent, tool == "` + hermes + `"`
	}
	return ""
}

// toolCompared finds a rule's tool (not tool_name, not args.tool)
// compared with a quoted name, either way round.
var toolCompared = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[^.\w])(tool\s*[!=]=\s*"([^"\\]*)")|("([^"\\]*)"\s*[!=]=\s*tool)\b`)
})

// toolWarning says, for a rule that compares tool with another name than
// a Hermes one (Claude Code's Bash, Gemini CLI's run_shell_command), that
// the comparison is always the same: tool is the one name every agent's
// call has, and a rule under a Claude Code event, whose matcher reads
// Claude Code's names, is easily written with them.
func toolWarning(e *hookconfig.Entry, tools *protocol.ToolTable) string {
	for _, m := range toolCompared().FindAllStringSubmatch(e.Rule().Source, -1) {
		written, name := m[1]+m[3], m[2]+m[4]
		canonical := tools.Hermes(name)
		if canonical == name {
			if _, renamed, ok := agents.NativeTool(name); ok {
				canonical = tools.Hermes(renamed)
			}
		}
		if canonical == name {
			continue // a Hermes name, or one no table knows
		}
		return written + ` compares tool with a name it never has: tool is the Hermes name of every agent's tool, so ` + name +
			` is tool == "` + canonical + `" (tool_name is the name the host sent)`
	}
	return ""
}
