package dispatcher

import (
	"strings"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// ConsentGate is the Gate hosts use: every hook goes through the consent
// policy (allowlist, content drift, accept channels, TTY prompt, safe mode).
// cwd is where relative script paths are found and, for Claude-dialect hooks
// without a settings-file project, what CLAUDE_PROJECT_DIR means.
func ConsentGate(p *consent.Policy, cwd string) Gate {
	return GateFunc(func(e *Entry) Verdict {
		v := p.Decide(ConsentHook(e, cwd))
		reason := v.Reason
		if !v.Run && !v.Approved && strings.HasPrefix(reason, "shell hook for ") {
			// The policy's warning (Hermes' wording) already went to the
			// user; the report keeps the short form.
			reason = "not allowlisted (approve with: " + consent.ApproveCommandHint(e.DeclaredAs, e.Command) + ")"
		}
		return Verdict{Run: v.Run, Reason: reason}
	})
}

// ConsentHook describes an entry to the consent package: approvals are keyed
// by the event name as declared and the command string; the script is
// located with CLAUDE_PROJECT_DIR expanded for Claude-dialect hooks.
func ConsentHook(e *Entry, cwd string) consent.Hook {
	if e.WorkDir != "" {
		cwd = e.WorkDir
	}
	h := consent.Hook{Event: e.DeclaredAs, Command: e.Command, Dir: cwd}
	if e.Dialect == protocol.Claude {
		project := e.ProjectDir
		if project == "" {
			project = cwd
		}
		h.Vars = map[string]string{"CLAUDE_PROJECT_DIR": project}
	}
	return h
}
