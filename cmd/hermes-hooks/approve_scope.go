package main

import (
	"fmt"

	"github.com/hermes-hooks/hermes-hooks/consent"
)

// ownBeforeRepository keeps, of the hooks a text names, the person's own
// when it names one of theirs: a repository's hook of the same text (or,
// for http and opa hooks, one that is shown alike) is code or a URL they
// did not mean, and approving it by a text typed for their own would
// approve what they never saw. It is named, and left to approve
// --project, which shows what a repository's hooks run. A text that names
// only a repository's hooks approves them, as before, when their text is
// all their approval pins (shownWholeOnly).
func ownBeforeRepository(a *app, targets []approveTarget) []approveTarget {
	own := false
	for _, t := range targets {
		own = own || t.status == nil || t.status.Entry.Scope.Global()
	}
	if !own {
		return targets
	}
	kept := targets[:0]
	for _, t := range targets {
		if t.status == nil || t.status.Entry.Scope.Global() {
			kept = append(kept, t)
			continue
		}
		sc := t.status.Entry.Scope
		fmt.Fprintf(a.Err, "not approved: the repository's hook of the same text in %s ([%s] %s); review the repository's hooks with: %s\n",
			show(sc.Source), show(t.event), show(consent.ShownCommand(t.command)), show(consent.ProjectApproveHint(sc.Project)))
	}
	return kept
}

// shownWholeOnly keeps, of the hooks a text names, all but a repository's
// hooks whose text is not all that their approval pins: a rule (its
// decision, message and mode are pinned with its expression: a context
// rule's message is text put before the model, and a message too long to
// show is approved only once read whole), an http or opa hook (its URL is
// shown with its secrets redacted, its headers not at all) and a handler
// that cannot run here. approve of a rule's id or expression already
// sent the person to approve --project (ruleNamed); its listed text,
// `rule: EXPR`, approved it without a word of its message. Each is named
// and left to approve --project, whose plan shows it whole. A
// repository's command is still approved by its text: that text is the
// command the person typed, and its files are pinned as for their own.
// review is the approve --project line of the last one left ("": none).
func shownWholeOnly(a *app, targets []approveTarget) (kept []approveTarget, review string) {
	kept = targets[:0]
	for _, t := range targets {
		if t.status == nil || t.status.Entry.Scope.Global() || t.status.Entry.RunsCommand() {
			kept = append(kept, t)
			continue
		}
		e := t.status.Entry
		what := "its approval pins more than this text (the whole URL, the headers)"
		if e.Rule() != nil {
			what = "its approval pins its decision and message with the expression"
		}
		review = consent.ProjectApproveHint(e.Scope.Project)
		fmt.Fprintf(a.Err, "not approved: [%s] %s is a hook of the repository in %s: %s, which approve --project shows before approving it: %s\n",
			show(t.event), show(consent.ShownCommand(t.command)), show(e.Scope.Source), what, show(review))
	}
	return kept, review
}
