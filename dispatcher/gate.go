package dispatcher

import (
	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// ConsentGate is the Gate hosts use: every hook goes through the consent
// policy (allowlist, content drift, accept channels, TTY prompt, safe mode).
// cwd is the dispatcher's working directory, where hooks without a directory
// of their own run and their relative script paths are found.
//
// A fail-closed entry whose consent cannot be confirmed — approved, but a
// file it runs changed or vanished since; or the allowlist cannot be read —
// blocks with a clear reason instead of being skipped: an approved guard
// must not be switched off by editing its script or breaking the allowlist.
// A fail-closed entry nobody ever approved is skipped like any other (it
// protects nothing until approved, and doctor says so).
func ConsentGate(p *consent.Policy, cwd string) Gate {
	return GateFunc(func(h Hook) Verdict {
		e := h.Entry
		dir := h.Dir
		if dir == "" {
			dir = cwd
		}
		ch := consent.Hook{
			Event: e.DeclaredAs, Command: e.Command, Scope: e.Scope,
			Shell: e.Dialect == protocol.Claude, Env: h.Env, Dir: dir, Target: &h.Target,
		}
		v := p.Decide(ch)
		hint := consent.ApproveCommandHint(e.DeclaredAs, e.Command)
		switch {
		case v.Run:
			return Verdict{Kind: VerdictRun, Reason: v.Reason, Pins: v.Pins}
		case e.FailClosed && v.Approved && v.Drift == consent.DriftHash:
			return Verdict{Kind: VerdictBlock, Reason: "guard " + e.Command + " changed since approval (" + v.Reason + "); it blocks until you review it and re-approve it"}
		case e.FailClosed && !v.Approved && v.Unknown:
			return Verdict{Kind: VerdictBlock, Reason: "guard " + e.Command + " cannot be confirmed approved: the allowlist " +
				p.Store.Path() + " cannot be read or is corrupt; it blocks until the allowlist is fixed or the guard re-approved (" + hint + ")"}
		case v.Unapproved:
			// The policy's warning (Hermes' wording) already went to the
			// user; the report keeps the short form.
			return Verdict{Kind: VerdictSkip, Reason: "not allowlisted (approve with: " + hint + ")"}
		}
		return Verdict{Kind: VerdictSkip, Reason: v.Reason}
	})
}

// ConsentHook describes an entry to the consent package as `list`, `doctor`
// and `approve` see it, run from cwd with no host fields: approvals are
// keyed by the event name as declared, the command string and the entry's
// scope; what it runs is resolved where the hook would run, with the
// dispatcher's environment (and CLAUDE_PROJECT_DIR for Claude-dialect
// hooks) — env nil means the process's own environment.
func ConsentHook(e *Entry, cwd string, env []string) consent.Hook {
	dir := e.WorkDir
	if dir == "" {
		dir = cwd
	}
	if env == nil {
		env = hookBaseEnv(nil)
	}
	if e.Dialect == protocol.Claude {
		project := e.ProjectDir
		if project == "" {
			project = dir
		}
		env = withEnv(env, "CLAUDE_PROJECT_DIR", project)
	}
	c := commandOf(e, env, dir)
	return consent.Hook{
		Event: e.DeclaredAs, Command: e.Command, Scope: e.Scope, Dir: dir, Env: env,
		Shell: c.Shell, Argv: c.Argv, ShellPath: c.ShellPath, Target: fixedTarget(e),
	}
}
