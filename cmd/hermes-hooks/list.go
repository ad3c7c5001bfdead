package main

import (
	"encoding/json"
	"fmt"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/internal/cli"
	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
	"github.com/hermes-hooks/hermes-hooks/report"
	"github.com/spf13/cobra"
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
	printList(a.Out, a.configLabel(), cfg, statuses)
	return nil
}

// printList prints Hermes' list layout: events sorted, hooks in config
// order, consent marks, approval time and drift; plus the dialect and the
// source file where they are not the plain Hermes defaults.
func printList(w io.Writer, label string, cfg *hookconfig.Config, statuses []report.HookStatus) {
	if len(statuses) == 0 {
		fmt.Fprintf(w, "No shell hooks configured in %s.\n", show(label))
		fmt.Fprintln(w, "See `hermes-hooks --help` or the README's config reference for the schema and")
		fmt.Fprintln(w, "worked examples (agent-hooks/config.yaml).")
		return
	}
	fmt.Fprintf(w, "Configured shell hooks (%d total):\n\n", len(statuses))
	// One group per event: its Hermes name and its Claude name (or an
	// alias) are one event, labelled with every name it was declared by.
	byEvent := map[string][]*report.HookStatus{}
	names := map[string][]string{}
	var events []string
	for i := range statuses {
		e := statuses[i].Entry
		ev := e.Event.Name
		if _, ok := byEvent[ev]; !ok {
			events = append(events, ev)
		}
		byEvent[ev] = append(byEvent[ev], &statuses[i])
		if !slices.Contains(names[ev], e.DeclaredAs) {
			names[ev] = append(names[ev], e.DeclaredAs)
		}
	}
	sort.Slice(events, func(i, j int) bool { return names[events[i]][0] < names[events[j]][0] })
	for _, ev := range events {
		fmt.Fprintf(w, "  [%s]\n", show(strings.Join(names[ev], " / ")))
		for _, st := range byEvent[ev] {
			e := st.Entry
			var b strings.Builder
			fmt.Fprintf(&b, "    - %s", show(e.Command))
			if e.Matcher != "" {
				fmt.Fprintf(&b, " matcher=%s", show(pyRepr(e.Matcher)))
			}
			fmt.Fprintf(&b, " (timeout=%ss", e.TimeoutSeconds())
			if e.Dialect != "hermes" {
				fmt.Fprintf(&b, ", %s dialect", e.Dialect)
			}
			if e.FailClosed {
				b.WriteString(", fail_closed")
			}
			if e.Priority != 0 {
				fmt.Fprintf(&b, ", priority=%d", e.Priority)
			}
			if e.Worker {
				b.WriteString(", worker")
				if e.Workers > 1 {
					fmt.Fprintf(&b, " ×%d", e.Workers)
				}
			}
			if e.Shadow {
				b.WriteString(", shadow")
			}
			if e.Duplicate {
				b.WriteString(", duplicate: runs once")
			}
			switch {
			case st.Approved && st.Drift.Kind == consent.DriftHash:
				b.WriteString(", ✗ changed since approval)")
			case st.Approved:
				b.WriteString(", ✓ allowlisted)")
			default:
				b.WriteString(", ✗ not allowlisted)")
			}
			fmt.Fprintln(w, b.String())
			if e.Source != "" && e.Source != cfg.Path {
				fmt.Fprintf(w, "      from: %s\n", show(e.Source))
			}
			if by := report.RunByText(e); by != "" {
				fmt.Fprintf(w, "      %s\n", show(by))
			}
			if st.Approved && st.Approval.ApprovedAt != "" {
				fmt.Fprintf(w, "      approved_at: %s\n", show(st.Approval.ApprovedAt))
			}
			if st.TextOnly != "" {
				fmt.Fprintf(w, "      ⚠ approved by its text only (%s): what it runs can change without notice\n", show(st.TextOnly))
			}
			switch {
			case st.Approved && st.Drift.Kind == consent.DriftMtime:
				fmt.Fprintf(w, "      ⚠ %s — run `hermes-hooks doctor` to re-validate\n", show(st.Drift.Message()))
			case st.Approved && st.Drift.Kind == consent.DriftHash:
				fmt.Fprintf(w, "      ✗ %s — will NOT run until re-approved: %s\n", show(st.Drift.Message()),
					show(consent.ApproveCommandHint(e.DeclaredAs, e.Command)))
			}
		}
		fmt.Fprintln(w)
	}
}

// pyRepr is Python's repr of a string: single quotes unless the string has
// a single quote and no double quote; backslashes doubled.
func pyRepr(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", `\'`) + "'"
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
