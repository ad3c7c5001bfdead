package main

import (
	"encoding/json"
	"io"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/internal/cli"
	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
	"github.com/hermes-hooks/hermes-hooks/report"
)

type listOptions struct{ json bool }

func newListCmd(a *app) *cobra.Command {
	var o listOptions
	cmd := &cobra.Command{
		Use:     "list",
		Aliases: []string{"ls"},
		Short:   "List configured hooks with matcher, timeout, and consent status",
		Long: `List every configured hook by event: command, matcher, timeout, dialect, the file
it came from, whether it is allowlisted, and whether its script changed since
it was approved.`,
		Example: `  hermes-hooks list
  hermes-hooks ls --json | jq '.hooks[] | select(.approved | not) | .command'
  hermes-hooks list --claude-settings .claude/settings.json`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error { return runList(a, o) },
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON for scripts")
	return cmd
}

// inspectAll loads the config and the allowlist and inspects every hook.
func (a *app) inspectAll() (*hookconfig.Config, *consent.Store, []report.HookStatus, error) {
	return a.inspect(a.LoadConfig)
}

// inspect is inspectAll with the config loaded by load (doctor's does not
// print the warnings: it reports them as problems).
func (a *app) inspect(load func() (*hookconfig.Config, error)) (*hookconfig.Config, *consent.Store, []report.HookStatus, error) {
	return a.inspectIn(cli.Cwd(), load)
}

// inspectIn is inspect for hooks that run from dir (a server's working
// directory).
func (a *app) inspectIn(dir string, load func() (*hookconfig.Config, error)) (*hookconfig.Config, *consent.Store, []report.HookStatus, error) {
	cfg, err := load()
	if err != nil {
		return nil, nil, nil, err
	}
	store, err := a.Store()
	if err != nil {
		return nil, nil, nil, err
	}
	allow, err := store.Load()
	if err != nil {
		a.Warn(err.Error())
	}
	return cfg, store, report.Inspect(cfg, allow, dir), nil
}

func runList(a *app, o listOptions) error {
	cfg, store, statuses, err := a.inspectAll()
	if err != nil {
		return err
	}
	if o.json {
		path, _ := a.Config()
		l := report.NewListing(path, cfg, store.Path(), statuses)
		l.Cwd = cli.Cwd()
		return writeJSON(a.Out, l)
	}
	report.PrintList(a.Out, a.configLabel(), cfg, statuses)
	return nil
}

// show escapes text from configs, allowlists, hooks and arguments for the
// terminal (see package termsafe): no config can make a line lie.
func show(s string) string { return termsafe.Escape(s) }

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
