package protocol

import "github.com/hermes-hooks/hermes-hooks/internal/textutil"

// An event may also run the entries of another (Event.AlsoRuns): Claude
// Code 2.1.332 fires a skill's shell command as PreSkillShellCommand, not
// PreToolUse, and a terminal guard that missed a command because a skill,
// not the model, wrote it would be a guard skipped in silence. The
// dispatcher selects such an entry where its matcher fits the call, sends
// it the payload of its own event (what it was written for), reads its
// reply by that event's rules, and holds the result to this event's
// (Adopt). An entry opts out in its config (skill_commands: false).

// Forwards reports whether the entries of ev run on e too (e.AlsoRuns
// names ev), besides e's own.
func (e *Event) Forwards(ev *Event) bool {
	return e != nil && ev != nil && e.AlsoRuns != "" && e.AlsoRuns == ev.Name
}

// AlsoRunFor lists the events that also run ev's entries: what an entry of
// ev opting out (skill_commands: false) opts out of; none for most events.
func AlsoRunFor(ev *Event) []*Event {
	var out []*Event
	for i := range catalog {
		if catalog[i].Forwards(ev) {
			out = append(out, &catalog[i])
		}
	}
	return out
}

// Adopt holds a contribution read by the rules of the event e forwards
// (e.AlsoRuns) to e's own, as if the reply had been e's: where nobody can
// be asked (RefusesAsk), an ask or defer refuses, the hook's question
// followed by AskRefusedReason; where the input cannot change
// (RefusesInputChange), a rewrite that does not refuse already refuses
// with InputChangeRefusedReason, and no rewrite survives either way;
// context and a Hermes approval's rule key go where e cannot carry them.
// It returns a copy; nil stays nil.
func (e *Event) Adopt(c *Contribution) *Contribution {
	if c == nil {
		return nil
	}
	out := *c
	rewrites := out.Args != nil || out.ReplaceArgs
	switch {
	case e.RefusesAsk && (out.Decision == DecisionAsk || out.Decision == DecisionDefer):
		out.Decision, out.Message = DecisionBlock, textutil.JoinNonEmpty("; ", out.Message, AskRefusedReason)
	case e.RefusesInputChange && rewrites && out.Decision != DecisionBlock:
		out.Decision, out.Message = DecisionBlock, InputChangeRefusedReason
	}
	if e.RefusesInputChange || !e.UpdatedInput && !e.Can(CapModify) {
		out.Args, out.ReplaceArgs = nil, false
	}
	if !e.Can(CapContext) {
		out.Context = ""
	}
	if !e.Can(CapApprove) {
		out.RuleKey = ""
	}
	if out.IsEmpty() {
		return nil
	}
	return &out
}
