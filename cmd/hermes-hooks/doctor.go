package main

import (
	"context"
	"fmt"
	"io"

	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/report"
	"github.com/spf13/cobra"
)

type doctorOptions struct{ json bool }

func newDoctorCmd(a *app) *cobra.Command {
	var o doctorOptions
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check each configured hook: exec bit, allowlist, drift, JSON validity, and synthetic run timing",
		Long: `Check every configured hook: the script exists and is executable, it is
allowlisted, it has not changed since approval, and — for approved, unchanged
hooks only — it replies sensibly to a synthetic event, in time. doctor never
runs a hook that dispatch would not run.

Exit status: 0 when every hook looks healthy, 1 when doctor found a problem
(Hermes always exits 0; a CI job needs the signal).`,
		Example: `  hermes-hooks doctor
  hermes-hooks doctor --json | jq '.hooks[] | select(.problems > 0)'`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error { return runDoctor(a, o) },
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON for scripts")
	return cmd
}

func runDoctor(a *app, o doctorOptions) error {
	cfg, _, statuses, err := a.inspectAll()
	if err != nil {
		return err
	}
	wd := cwd()
	// The gate is irrelevant here: Doctor only smoke-runs hooks that are
	// approved and unchanged, through RunEntry.
	// Profile: test and doctor fire events as Hermes does, from a Hermes
	// process with an active profile, so hooks see the payload Hermes sends.
	d, err := dispatcher.New(cfg, dispatcher.Options{Gate: dispatcher.AllowAll, Cwd: wd, Warn: a.warn, Profile: "default", OneShotWorkers: true})
	if err != nil {
		return err
	}
	results := report.Doctor(context.Background(), d, statuses)
	problems := 0
	for _, r := range results {
		problems += r.Problems
	}
	if o.json {
		hooks := make([]report.HookInfo, 0, len(results))
		for i := range results {
			h := report.NewHookInfo(&results[i].Status)
			h.Checks = results[i].Checks
			n := results[i].Problems
			h.Problems = &n
			hooks = append(hooks, h)
		}
		if err := writeJSON(a.out, map[string]any{"hooks": hooks, "problems": problems, "healthy": problems == 0}); err != nil {
			return err
		}
	} else {
		printDoctor(a.out, results, problems)
	}
	if problems > 0 {
		return silentExit(1)
	}
	return nil
}

func printDoctor(w io.Writer, results []report.DoctorResult, problems int) {
	if len(results) == 0 {
		fmt.Fprintln(w, "No shell hooks configured — nothing to check.")
		return
	}
	fmt.Fprintf(w, "Checking %d configured shell hook(s)...\n\n", len(results))
	for _, r := range results {
		fmt.Fprintf(w, "  [%s] %s\n", show(r.Status.Entry.DeclaredAs), show(r.Status.Entry.Command))
		for _, c := range r.Checks {
			fmt.Fprintf(w, "      %s %s\n", c.Level.Symbol(), show(c.Text))
		}
		fmt.Fprintln(w)
	}
	if problems > 0 {
		fmt.Fprintf(w, "%d issue(s) found.  Fix before relying on these hooks.\n", problems)
		return
	}
	fmt.Fprintln(w, "All shell hooks look healthy.")
}
