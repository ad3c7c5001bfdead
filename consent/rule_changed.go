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
//
// The id's approval holds in every checkout of the repository (the same
// hooks file and project root inside it, portable.go), as a guard script's
// does: a fresh clone or a worktree of the branch where the rule was
// weakened must not run the call the approved rule refused. The repository
// identity proves nothing, but it is asked only to refuse more: a rule
// found "changed" is never run on that account.

// ruleKey is an approved rule's place: its id, event and scope, or (repo)
// its place in its repository (portKey without event and command).
type ruleKey struct {
	event, id string
	scope     Scope
	repo      string
}

// ruleApproval is the approval in f of a rule with h's id, event and
// scope, when h is a repository's rule with an id (the newest such one),
// else the newest given in another checkout of its repository at the same
// place.
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
	r, here, ok := where(h.Scope)
	if !ok {
		return Entry{}, false
	}
	// One of the same text first: what differs then is the hooks file,
	// which the message names (ruleChangedDrift).
	var found Entry
	ok = false
	for i := len(f.Projects) - 1; i >= 0; i-- {
		e := f.Projects[i]
		if e.valid && e.RuleID == h.RuleID && e.Event == h.Event && e.Repo.Linked() &&
			e.Repo.Source == here.Source && e.Repo.Project == here.Project && r.Shares(e.Repo.IDs) {
			if e.Command == h.Command {
				return e, true
			}
			if !ok {
				found, ok = e, true
			}
		}
	}
	return found, ok
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
			if !e.valid || e.RuleID == "" || e.Scope.Global() {
				continue
			}
			s.rules[ruleKey{event: e.Event, id: e.RuleID, scope: e.Scope}] = struct{}{}
			for _, id := range e.Repo.IDs {
				s.rules[ruleKey{event: e.Event, id: e.RuleID, repo: portKey("", "", e.Repo, id)}] = struct{}{}
			}
		}
	})
	return s.rules
}

// ruleApprovedHere reports whether the snapshot holds an approval of the
// rule id for event at scope, or at its place in another checkout of its
// repository (File.ruleApproval).
func (s *snapshot) ruleApprovedHere(event, ruleID string, scope Scope) bool {
	idx := s.ruleIndex()
	if _, ok := idx[ruleKey{event: event, id: ruleID, scope: scope}]; ok {
		return true
	}
	_, here, ok := where(scope)
	if !ok {
		return false
	}
	for _, id := range here.IDs {
		if _, ok := idx[ruleKey{event: event, id: ruleID, repo: portKey("", "", here, id)}]; ok {
			return true
		}
	}
	return false
}

// RefusesRule is Refuses for a repository's rule with an id (ruleID; ""
// for any other hook): a rule of that id approved in the same place (in
// this checkout or another of its repository) is not refused here, so that
// Decide says it changed.
func (s Screen) RefusesRule(event, command, ruleID string, scope Scope) bool {
	if !s.Refuses(event, command, scope) {
		return false
	}
	if ruleID == "" {
		return true
	}
	return !s.snap.ruleApprovedHere(event, ruleID, scope)
}

// ruleChangedDrift is how h differs from e, the approval of its id. The
// same text approved in another checkout did not travel because the
// hooks file is not the one approved there (an approval pins it): saying
// the rule changed would send the person looking for a change that is not
// in it.
func ruleChangedDrift(h *Request, e *Entry) Drift {
	if e.Command == h.Command && e.Scope != h.Scope {
		return Drift{Kind: DriftHash, Why: fmt.Sprintf("rule %s is approved in another checkout of this repository, whose hooks file %s was not this one (approvals pin it)", h.RuleID, e.Repo.Source)}
	}
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
