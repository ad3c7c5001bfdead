package main

import (
	"context"

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
	if o.json {
		if err := writeJSON(a.Out, report.ExamplesJSON(hooks)); err != nil {
			return err
		}
	} else {
		report.PrintExamples(a.Out, hooks)
	}
	if _, failed, _ := report.ExampleTotals(hooks); failed > 0 {
		return silentExit(1)
	}
	return nil
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
