package main

import (
	"fmt"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/report"
)

// runApproveAll is `approve --all`: every hook of the person's own (their
// config, their own settings files, what a bundle or managed layer adds)
// not yet approved is approved. A repository's hooks are not: --all shows
// no plan and asks nothing, so in a clone it approved whatever the
// repository declared (a script it ships, a context rule's message put
// before the model, one too long to be shown) without the person seeing
// it. They are named per repository and left to approve --project, which
// lists each with the files it runs and asks first.
func runApproveAll(a *app, o approveOptions) error {
	cfg, store, statuses, err := a.inspectAll()
	if err != nil {
		return err
	}
	var targets []approveTarget
	var left []repositoryLeft
	for i := range statuses {
		st := &statuses[i]
		e := st.Entry
		if e.Duplicate {
			continue // approved with the entry it repeats
		}
		if !e.Scope.Global() {
			if !upToDate(st) {
				left = leaveToProject(left, e.Scope.Project)
			}
			continue
		}
		targets = append(targets, approveTarget{event: e.DeclaredAs, command: e.Text(), status: st})
	}
	if left == nil {
		left = []repositoryLeft{} // [], not null, in --json
	}
	if len(targets) == 0 {
		switch {
		case o.json:
			return writeJSON(a.Out, map[string]any{"results": []any{}, "approved": 0, "refused": 0, "allowlist": store.Path(),
				"repositories_not_approved": left})
		case len(left) == 0:
			fmt.Fprintf(a.Out, "No shell hooks configured in %s — nothing to approve.\n", show(a.configLabel()))
		default:
			fmt.Fprintf(a.Out, "None of your own hooks (%s) to approve.\n", show(a.configLabel()))
		}
		printLeft(a, left)
		return nil
	}
	o.jsonExtra = map[string]any{"repositories_not_approved": left}
	err = approveTargets(a, cfg, store, targets, "", o)
	if !o.json {
		printLeft(a, left)
	}
	return err
}

// repositoryLeft is a repository whose hooks approve --all left
// unapproved: how many, and the command that reviews and approves them.
type repositoryLeft struct {
	Project string `json:"project"`
	Hooks   int    `json:"hooks"`
	Review  string `json:"review"`
}

// leaveToProject counts one more hook of project's in left.
func leaveToProject(left []repositoryLeft, project string) []repositoryLeft {
	for i := range left {
		if left[i].Project == project {
			left[i].Hooks++
			return left
		}
	}
	return append(left, repositoryLeft{Project: project, Hooks: 1, Review: consent.ProjectApproveHint(project)})
}

// printLeft names each repository whose hooks approve --all left, and the
// command that shows them before approving.
func printLeft(a *app, left []repositoryLeft) {
	for _, l := range left {
		fmt.Fprintf(a.Out, "  – not approved: %s of the repository at %s: approve --all approves your own hooks only; review the repository's and approve them with: %s\n",
			report.Count(l.Hooks, "hook", "hooks"), show(l.Project), show(l.Review))
	}
}
