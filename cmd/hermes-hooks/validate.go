package main

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/cli"
	"github.com/hermes-hooks/hermes-hooks/report"
)

type validateOptions struct{ json bool }

func newValidateCmd(a *app) *cobra.Command {
	var o validateOptions
	cmd := &cobra.Command{
		Use:   "validate",
		Short: "Check every config file for mistakes, without running anything",
		Long: `Read every config source the dispatcher would — the config, the project's
.hermes/hooks.yaml, and every Claude Code settings file and agent hook file
they or the flags name — and report each problem with its file, line and key
path: unknown keys (with the key you probably meant, in Claude Code settings
too), unknown events, matchers that do not compile, matchers naming a tool in
the other dialect's spelling (Bash under pre_tool_call, terminal under
PreToolUse), bad timeouts, relative commands in a user-level file (they run
in whatever directory the agent is in), files that cannot be parsed (a YAML
mistake at its line in plain words: a tab, an indentation one space short, a
quote never closed, a missing space after ':'; a JSON one at its line and
column), and hooks whose command cannot start (missing script, not
executable, CRLF line endings, bad interpreter). Every rule is compiled, and
its examples are evaluated: your own config's rules at once (also those read
from a config that does not load, beside what stops it), a repository's
only once you approved it as it is (until then a warning says so); a rule
that errs on the made-up call test sends (a terminal call, for a rule whose
matcher selects it: a misspelt args.comand) is a warning. Nothing else is
run and nothing is approved.

Errors are things written that are ignored, changed or cannot run (a
misspelt fail_closed turns a guard's protection off); warnings are things
that still mean what they say, only less (a timeout clamped to the maximum).

--json: {problems, errors, warnings, valid, files}; files is how many config
files were read (0: there was nothing to check; a config that does not
load counts the files read before it stopped, those its problems are in at
least; an include whose file could not be read is not counted).

Exit status: 1 when there is an error, 0 otherwise (warnings included).`,
		Example: `  hermes-hooks validate
  hermes-hooks validate --config ./hooks.yaml
  hermes-hooks validate --json | jq -r '.problems[] | "\(.file):\(.line): \(.message)"'`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error { return runValidate(a, o) },
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON for scripts")
	return cmd
}

// allowlistQuiet is the allowlist as it stands, nil when it cannot be
// read (then no repository rule counts as approved): validate evaluates
// a repository's rule examples only once the rule is approved.
func (a *app) allowlistQuiet() *consent.File {
	store, err := a.Store()
	if err != nil {
		return nil
	}
	allow, err := store.Load()
	if err != nil {
		return nil
	}
	return allow
}

// unloadedFiles is how many config files validate read of a config that
// does not load (err): those its problems are in, or, when more, those of
// what did load (the config and the rule files read before the error).
// Not 0, "nothing to check", for a file that was read and is broken.
func unloadedFiles(err error, problems []report.Problem) int {
	seen := map[string]bool{}
	for _, p := range problems {
		if p.File != "" {
			seen[p.File] = true
		}
	}
	n := len(seen)
	var ce *hookconfig.ConfigError
	if errors.As(err, &ce) && ce.Partial != nil {
		n = max(n, ce.Partial.FilesRead())
	}
	return n
}

func runValidate(a *app, o validateOptions) error {
	var problems []report.Problem
	var managed *report.ManagedInfo
	files := 0
	missing := "" // the config file, when no file at all was read
	if a.ConfigPath != "" {
		if p, missing := report.MissingConfig(a.ConfigPath); missing {
			problems = append(problems, p)
		}
	}
	if len(problems) == 0 {
		cfg, err := a.LoadConfigQuiet()
		if err != nil {
			problems = append(problems, report.LoadProblems(err, cli.Cwd())...)
			files = unloadedFiles(err, problems)
		} else {
			problems = report.Validate(cfg, cli.Cwd(), a.allowlistQuiet())
			// The config file counts when it is there: before it exists
			// (a newcomer's first validate) nothing was checked, and
			// "no problems in 1 config file" said otherwise.
			if files = cfg.FilesRead(); files == 0 {
				missing, _ = a.Config()
			}
			managed = report.NewManagedInfo(cfg)
			if !o.json {
				report.PrintManaged(a.Out, cfg)
			}
		}
	}
	errs := report.Errors(problems)
	if o.json {
		if problems == nil {
			problems = []report.Problem{}
		}
		out := map[string]any{"problems": problems, "errors": errs, "warnings": len(problems) - errs, "valid": errs == 0, "files": files}
		if managed != nil {
			out["managed"] = managed
		}
		if err := writeJSON(a.Out, out); err != nil {
			return err
		}
	} else if missing != "" && len(problems) == 0 {
		fmt.Fprintf(a.Out, "✓ nothing to check: no config file (%s does not exist yet).\n", show(missing))
	} else {
		report.PrintProblems(a.Out, problems, errs, files)
	}
	if errs > 0 {
		return silentExit(1)
	}
	return nil
}
