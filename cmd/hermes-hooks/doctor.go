package main

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/internal/cli"
	"github.com/hermes-hooks/hermes-hooks/journal"
	"github.com/hermes-hooks/hermes-hooks/report"
)

type doctorOptions struct {
	json, live, noRun bool
	server            string
}

func newDoctorCmd(a *app) *cobra.Command {
	var o doctorOptions
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check each configured hook: exec bit, allowlist, drift, JSON validity, and synthetic run timing",
		Long: `Check every configured hook: the script exists and is executable, it is
allowlisted, it has not changed since approval, and — for approved, unchanged
hooks only — it replies sensibly to a synthetic event, in time, writes
nothing to stderr, and passes the examples its entry declares (see
'hermes-hooks test --examples'). doctor never runs a hook that dispatch
would not run.

doctor also proves that the hook files install wrote (this project's and
your own) fire: it runs each hermes-hooks entry exactly as the agent would
(through the agent's shell, in the file's folder, with a sample payload of
its event), with a private probe token that makes 'hermes-hooks hook'
answer without running any hook. Per entry it says "fires ✓", or that
hermes-hooks is not found (not on PATH, or a moved binary); an entry that
is not one install writes is never run ("not a hermes-hooks entry, not
run"). It says when the agent does not trust the project's folder (Codex,
Gemini CLI, Copilot CLI), and when the journal has no event since the
file was installed.

With --live, doctor asks a running 'hermes-hooks serve' (--server, default
its socket $HERMES_HOME/hermes-hooks.sock) what it has really loaded and done
(GET /v1/hooks and /v1/stats) and compares that with the config on disk:
hooks configured but not loaded (the server's config is stale, or its last
reload failed), loaded but not runnable (not approved, changed since
approval, script missing), with a config warning (a matcher that cannot
compile), never fired although their event was dispatched, failing (errors,
timeouts) or slow (p99 over half the timeout). It runs no hook itself.

Exit status: 0 when every hook looks healthy, 1 when doctor found a problem
(a guard that does not fire is one; Hermes always exits 0, but a CI job
needs the signal), or when --live finds no server answering.`,
		Example: `  hermes-hooks doctor
  hermes-hooks doctor --json | jq '.hooks[] | select(.problems > 0)'
  hermes-hooks doctor --json | jq '.installed[].entries[] | select(.status != "fires")'
  hermes-hooks doctor --live
  hermes-hooks doctor --live --server tcp://127.0.0.1:8765 --json`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.server != "" && !o.live {
				return usageErr("add --live to check a running server", "--server needs --live")
			}
			if o.live {
				return runDoctorLive(a, o)
			}
			return runDoctor(a, o)
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON for scripts")
	cmd.Flags().BoolVar(&o.noRun, "no-run", false, "run no hook at all: skip every smoke run, example and installed entry's probe")
	cmd.Flags().BoolVar(&o.live, "live", false, "check what a running 'hermes-hooks serve' has loaded and done against the config on disk")
	cmd.Flags().StringVar(&o.server, "server", "", "the server for --live: unix:///path, token:///path or tcp://127.0.0.1:PORT (default unix://$HERMES_HOME/hermes-hooks.sock)")
	return cmd
}

func runDoctor(a *app, o doctorOptions) error {
	cfg, store, statuses, err := a.inspect(a.LoadConfigQuiet)
	if err != nil {
		return err
	}
	configProblems, counted := report.DoctorConfigProblems(cfg)
	refusals := report.UnloadedRefusals(cfg, a.allowlistQuiet())
	configProblems = append(configProblems, refusals...)
	// The gate is irrelevant here: Doctor only smoke-runs hooks that are
	// approved and unchanged, through RunEntry.
	d, err := a.trialDispatcher(cfg, cli.Cwd())
	if err != nil {
		return err
	}
	results := report.Doctor(context.Background(), d, statuses, report.DoctorOptions{NoRun: o.noRun, Examples: a.exampleRunner(cfg, store)})
	if home, err := a.Home(); err == nil {
		if _, err := os.Stat(filepath.Join(home, filepath.FromSlash(install.HermesPluginDir), "plugin.yaml")); err == nil {
			report.WarnRunTwice(results, filepath.Join(home, "config.yaml"))
		}
	}
	var journalPath string
	if home, err := a.Home(); err == nil {
		journalPath = journal.PathFor(cfg.Journal, home)
	}
	report.NoteJournalFailures(results, journalPath, time.Now())
	installs := checkInstalls(a, o, journalPath, cfg)
	problems := counted + len(refusals)
	for _, r := range results {
		problems += r.Problems
	}
	for i := range installs {
		problems += installs[i].Problems()
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
		if configProblems == nil {
			configProblems = []report.Problem{}
		}
		if installs == nil {
			installs = []report.InstallCheck{}
		}
		out := map[string]any{"config_problems": configProblems, "hooks": hooks, "installed": installs, "problems": problems, "healthy": problems == 0}
		if m := report.NewManagedInfo(cfg); m != nil {
			out["managed"] = m
		}
		if err := writeJSON(a.Out, out); err != nil {
			return err
		}
	} else {
		report.PrintManaged(a.Out, cfg)
		report.PrintConfigProblems(a.Out, configProblems)
		report.PrintInstallChecks(a.Out, installs, time.Now())
		report.PrintDoctor(a.Out, results, problems)
	}
	if problems > 0 {
		return silentExit(1)
	}
	return nil
}
