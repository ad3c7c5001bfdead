package dispatcher

import (
	"strings"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// ConsentGate is the Gate hosts use: every hook goes through the consent
// policy (allowlist, content drift, accept channels, TTY prompt, safe mode).
// cwd is the dispatcher's working directory, where hooks without a directory
// of their own run and their relative script paths are found.
func ConsentGate(p *consent.Policy, cwd string) Gate {
	return GateFunc(func(h Hook) Verdict {
		e := h.Entry
		dir := h.Dir
		if dir == "" {
			dir = cwd
		}
		ch := consent.Hook{Event: e.DeclaredAs, Command: e.Command, Dir: dir}
		if e.Dialect == protocol.Claude {
			ch.Vars = map[string]string{"CLAUDE_PROJECT_DIR": h.ProjectDir}
		}
		v := p.Decide(ch)
		reason := v.Reason
		if !v.Run && !v.Approved && strings.HasPrefix(reason, "shell hook for ") {
			// The policy's warning (Hermes' wording) already went to the
			// user; the report keeps the short form.
			reason = "not allowlisted (approve with: " + consent.ApproveCommandHint(e.DeclaredAs, e.Command) + ")"
		}
		return Verdict{Run: v.Run, Reason: reason}
	})
}

// ConsentHook describes an entry to the consent package as `list`, `doctor`
// and `approve` see it, run from cwd with no host fields: approvals are
// keyed by the event name as declared and the command string; the script is
// located where the hook would run, with CLAUDE_PROJECT_DIR expanded for
// Claude-dialect hooks.
func ConsentHook(e *Entry, cwd string) consent.Hook {
	dir := e.WorkDir
	if dir == "" {
		dir = cwd
	}
	h := consent.Hook{Event: e.DeclaredAs, Command: e.Command, Dir: dir}
	if e.Dialect == protocol.Claude {
		project := e.ProjectDir
		if project == "" {
			project = dir
		}
		h.Vars = map[string]string{"CLAUDE_PROJECT_DIR": project}
	}
	return h
}
