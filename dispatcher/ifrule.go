package dispatcher

import (
	"os"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Claude Code handlers may carry "if": a permission rule (Bash(git *),
// Edit(src/**), WebFetch(domain:x.com) …) that filters which tool calls run
// the handler (protocol.ParseIfRule has the syntax). A rule is parsed once,
// when the config is loaded. On events that are not tool events the handler
// never runs, as in Claude Code. A rule that cannot be evaluated must not
// become a silently skipped guard: such a handler is selected, and on the
// gating event it blocks the call with the reason (elsewhere it is skipped
// and reported).

// compileIf parses the entry's rule; a rule that does not parse is kept as
// the reason it cannot be evaluated.
func (e *Entry) compileIf() {
	if e.If == "" {
		return
	}
	r, err := protocol.ParseIfRule(e.If)
	if err != nil {
		e.ifBroken = "its if condition " + e.If + " cannot be evaluated (" + err.Error() + ")"
		return
	}
	e.ifRule = &r
}

// ifAllows reports whether the entry's if rule (if any) lets it run for
// this firing. A rule that cannot be evaluated lets it through to be
// blocked or reported by Dispatch.
func (d *Dispatcher) ifAllows(ev *protocol.Event, e *Entry, fields map[string]any) bool {
	if e.If == "" {
		return true
	}
	if !protocol.IfRuleApplies(ev.ClaudeName()) {
		return false
	}
	if e.ifRule == nil {
		return true // broken: Dispatch blocks or reports it
	}
	tool, _ := fields["tool_name"].(string)
	input := map[string]any{}
	if a, _ := protocol.Args(fields); a != nil {
		if m, ok := a.(map[string]any); ok {
			input = m
		}
	}
	claudeTool := d.cfg.Tools.Claude(tool)
	input = protocol.ClaudeToolInput(claudeTool, input)
	ctx := protocol.RuleContext{Cwd: d.opts.Cwd, ProjectDir: e.ProjectDir}
	if cwd, ok := fields["cwd"].(string); ok && cwd != "" {
		ctx.Cwd = cwd
	}
	if ctx.ProjectDir == "" {
		ctx.ProjectDir = ctx.Cwd
	}
	ctx.Home, _ = os.UserHomeDir()
	ok, _ := e.ifRule.Match(claudeTool, input, ctx)
	return ok
}
