package consent

import "fmt"

// A repository's rule is approved by its text (its expression, decision,
// message and mode): a rule whose expression changed is another hook. Yet
// when it keeps its id: in the same hooks file and event it is the team's
// rule, changed — a contributor's weakened expression, say. An approval
// records the id (Entry.RuleID), and such a rule is "changed since
// approval", as a script whose bytes changed is: it does not evaluate
// until approved again, and a fail_closed one blocks meanwhile (the
// dispatcher's gate), where a new rule nobody approved is skipped. A rule
// without an id has nothing that says it is the same rule, and stays a new
// one.

// ruleKey is an approved rule's place: its id, event and scope.
type ruleKey struct {
	event, id string
	scope     Scope
}

// ruleApproval is the approval in f of a rule with h's id, event and
// scope, when h is a repository's rule with an id (the newest such one).
func (f *File) ruleApproval(h *Request) (Entry, bool) {
	if f == nil || h.RuleID == "" || h.Scope.Global() {
		return Entry{}, false
	}
	for i := len(f.Projects) - 1; i >= 0; i-- {
		e := f.Projects[i]
		if e.valid && e.RuleID == h.RuleID && e.Event == h.Event && e.Scope == h.Scope {
			return e, true
		}
	}
	return Entry{}, false
}

// ruleIndex is the set of the snapshot's rule approvals by place, built at
// its first use (Screen asks at every firing).
func (s *snapshot) ruleIndex() map[ruleKey]struct{} {
	s.ruleOnce.Do(func() {
		s.rules = map[ruleKey]struct{}{}
		if s.file == nil {
			return
		}
		for _, e := range s.file.Projects {
			if e.valid && e.RuleID != "" && !e.Scope.Global() {
				s.rules[ruleKey{e.Event, e.RuleID, e.Scope}] = struct{}{}
			}
		}
	})
	return s.rules
}

// RefusesRule is Refuses for a repository's rule with an id (ruleID; ""
// for any other hook): a rule of that id approved in the same place is not
// refused here, so that Decide says it changed.
func (s Screen) RefusesRule(event, command, ruleID string, scope Scope) bool {
	if !s.Refuses(event, command, scope) {
		return false
	}
	if ruleID == "" {
		return true
	}
	_, approved := s.snap.ruleIndex()[ruleKey{event, ruleID, scope}]
	return !approved
}

// ruleChangedDrift is how h differs from e, the approval of its id.
func ruleChangedDrift(h *Request, e *Entry) Drift {
	return Drift{Kind: DriftHash, Why: fmt.Sprintf("rule %s changed since approval (it was approved as %s)", h.RuleID, ShownCommand(e.Command))}
}

// decideRuleChanged is Decide's verdict on a repository's rule that is not
// approved as it is, when a rule of its id is (ok false otherwise): changed
// since approval, as checkScript says of a script.
func (p *Policy) decideRuleChanged(h *Request) (Verdict, bool) {
	e, ok := p.current().file.ruleApproval(h)
	if !ok {
		return Verdict{}, false
	}
	d := ruleChangedDrift(h, &e)
	v := Verdict{Approved: true, Drift: d.Kind, Changed: d.Message()}
	v.Reason = v.Changed + "; re-approve with: " + ApproveHint(h.Event, h.Command, h.Scope)
	p.warn(fmt.Sprintf("shell hook for %s (%s) not run: %s", h.Event, ShownCommand(h.Command), v.Reason))
	return v, true
}
