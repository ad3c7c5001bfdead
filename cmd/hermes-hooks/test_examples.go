package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/cli"
	"github.com/hermes-hooks/hermes-hooks/report"
)

// runTestExamples is `test --examples`: every hook's examples, approved
// hooks only.
func runTestExamples(a *app, o testOptions) error {
	cfg, store, statuses, err := a.inspectAll()
	if err != nil {
		return err
	}
	x := a.exampleRunner(cfg, store)
	hooks := report.RunExamples(context.Background(), *x, statuses)
	_, failed, notRun := report.ExampleTotals(hooks)
	incomplete := o.requireAll && notRun > 0
	if o.json {
		if err := writeJSON(a.Out, report.ExamplesJSON(hooks, o.requireAll)); err != nil {
			return err
		}
	} else {
		report.PrintExamples(a.Out, hooks)
	}
	if incomplete && !o.json {
		fmt.Fprintf(a.Err, "hermes-hooks: examples not run (--require-all): %s\n", notRunList(hooks))
	}
	if failed > 0 || incomplete {
		return silentExit(1)
	}
	return nil
}

// notRunList names each hook whose examples were not run, with why (the
// reason's first clause: "not approved", "changed since approval").
func notRunList(hooks []report.HookExamples) string {
	var names []string
	for i := range hooks {
		h := &hooks[i]
		if h.NotRun == "" {
			continue
		}
		why, _, _ := strings.Cut(h.NotRun, ", examples not run")
		e := h.Status.Entry
		names = append(names, fmt.Sprintf("[%s] %s (%s)", show(e.DeclaredAs), show(report.ExampleHeading(e)), show(why)))
	}
	return strings.Join(names, ", ")
}

// exampleRunner runs examples through the consent gate dispatch uses, with
// every accept channel off: checking a guard must never approve anything
// (--accept-hooks, HERMES_ACCEPT_HOOKS, hooks_auto_accept), and an
// unapproved hook never runs, whatever the caller filtered before.
func (a *app) exampleRunner(cfg *hookconfig.Config, store *consent.Store) *report.ExampleRunner {
	pol := consent.NewPolicy(store, consent.PolicyOptions{Warn: a.Warn})
	pol.Accept, pol.AutoAccept, pol.Prompter = false, false, nil
	return &report.ExampleRunner{Gate: dispatcher.ConsentGate(pol), Tools: cfg.Tools, Cwd: cli.Cwd(), Warn: a.Warn}
}
