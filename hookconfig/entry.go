package hookconfig

import (
	"cmp"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/protocol"
	"github.com/hermes-hooks/hermes-hooks/protocol/permrule"
)

// ViaShell reports an entry whose command runs through /bin/sh -c, in the
// session's directory, with the agent's project-directory variable: the
// Claude-shaped entries (those agents run hook commands that way).
func (e *Entry) ViaShell() bool {
	return e.ClaudeShaped()
}

// ClaudeShaped reports an entry that runs as Claude-dialect entries do —
// through the shell, in the session's directory, its matcher read by
// Claude Code's rule: the Claude dialect, and an agent's own dialect
// carried by a Codec (Cursor's, Gemini CLI's …).
func (e *Entry) ClaudeShaped() bool {
	return e.Dialect == protocol.Claude || e.Codec != nil
}

// Covers reports whether the agent's event the entry is declared under
// stands for this firing of its canonical event, when its Codec says so
// (protocol.EventRules: Cursor's beforeShellExecution is shell commands
// only); other entries are declared under events that cover every firing.
func (e *Entry) Covers(fields map[string]any, tools *protocol.ToolTable) bool {
	r, ok := e.Codec.(protocol.EventRules)
	return !ok || r.Covers(e.DeclaredAs, fields, tools)
}

// ReplyProblem is why a run of the entry's hook that printed stdout and
// exited with exit guards nothing, read in the entry's dialect — its
// codec's for an agent's own file (protocol.CodecReplyProblem), else
// protocol.ReplyFormProblem's; "" when it does. For test and doctor.
func (e *Entry) ReplyProblem(stdout []byte, exit int) string {
	if e.Codec != nil {
		return protocol.CodecReplyProblem(e.Codec, e.DeclaredAs, e.Event, stdout, exit)
	}
	return protocol.ReplyFormProblem(e.Event, e.Dialect, stdout, exit)
}

// RunByTitle names the agent an entry was written for, for messages
// ("Claude Code" for Claude handlers pasted into the YAML, FileOf "").
func (e *Entry) RunByTitle() string {
	if a, ok := agents.Lookup(cmp.Or(e.FileOf, e.RunBy)); ok {
		return a.Title
	}
	return "Claude Code"
}

// Matches reports whether the entry's matcher accepts this firing's fields
// and whether the agent's event it is declared under stands for this
// firing at all (Covers: Cursor's beforeShellExecution is shell commands
// only).
//
// A matcher that cannot tell — the backtracking engine ran out of time —
// accepts: Dispatch then runs the entry as a hook that cannot start, so
// that a fail_closed guard blocks rather than being skipped on a guess.
func (e *Entry) Matches(fields map[string]any, tools *protocol.ToolTable) bool {
	var b MatchBudget
	f := protocol.NewFiring(e.Event, "", fields)
	f.Bind(tools, "", nil)
	return e.Covers(fields, tools) && e.match.fits(e, &f, tools, &b) != FitNo
}

// IfRule is the entry's compiled Claude `if` rule (nil: none, or one that
// cannot be evaluated: IfBroken says why).
func (e *Entry) IfRule() *permrule.IfRule { return e.ifRule }

// IfBroken says why the entry's `if` rule cannot be evaluated ("" when it
// can, or there is none).
func (e *Entry) IfBroken() string { return e.ifBroken }

// CompileIf parses the entry's rule; a rule that does not parse is kept as
// the reason it cannot be evaluated.
func (e *Entry) CompileIf() {
	if e.If == "" {
		return
	}
	r, err := permrule.ParseIfRule(e.If)
	if err != nil {
		e.ifBroken = "its if condition " + e.If + " cannot be evaluated (" + err.Error() + ")"
		return
	}
	e.ifRule = &r
}
