package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/internal/cli"
)

func newExportCmd(a *app) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Send the decision journal's records where the config's export: block says",
		Long: `Every journal record also goes to the sinks of the config's export: block
(OpenTelemetry logs over OTLP/HTTP, syslog, a JSON-lines file; see
docs/export.md). serve sends its records itself. A one-shot hook or dispatch
leaves its records in the export spool ($HERMES_HOME/export-spool) and starts
'export flush' detached, so that sending never delays an answer; serve also
flushes the spool every 30 seconds.`,
		Example: `  hermes-hooks export flush
  hermes-hooks export flush --within 5s --json`,
		Args: exactArgs(0, "a subcommand: flush"),
		// Alone, like bundle alone: the usage, and exit 2 (nothing done).
		RunE: usageOnly(a),
	}
	cmd.AddCommand(newExportFlushCmd(a))
	return cmd
}

type exportFlushOptions struct {
	within time.Duration
	linger time.Duration
	json   bool
	quiet  bool
}

func newExportFlushCmd(a *app) *cobra.Command {
	var o exportFlushOptions
	cmd := &cobra.Command{
		Use:   "flush",
		Short: "Send the records one-shot hooks left in the export spool",
		Long: `Send the records that one-shot hook and dispatch processes left in the export
spool to the config's export sinks, then remove them. One flush runs at a
time: another finds it busy and does nothing. A sink that does not answer is
retried with backoff until --within runs out; what is left stays for the next
flush. Exits 1 when records are left. The flush a hook starts lingers
(--linger 2s): the hook calls that follow find it running and start none.`,
		Example: `  hermes-hooks export flush
  hermes-hooks export flush --within 5s --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runExportFlush(a, o) },
	}
	cmd.Flags().DurationVar(&o.within, "within", cli.DefaultFlushWithin, "give up (leaving the rest in the spool) after this long")
	cmd.Flags().DurationVar(&o.linger, "linger", 0, "after the spool is empty, wait this long for more records (the detached flush: 2s)")
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON for scripts")
	cmd.Flags().BoolVar(&o.quiet, "quiet", false, "print nothing (the detached flush a hook starts)")
	return cmd
}

func runExportFlush(a *app, o exportFlushOptions) error {
	if o.within <= 0 {
		return usageErr("e.g. --within 30s", "--within must be a positive duration")
	}
	res, err := a.FlushExport(context.Background(), o.within, o.linger)
	if o.quiet {
		return err
	}
	if o.json {
		out := map[string]any{"sent": res.Sent, "dropped": res.Dropped, "left": res.Left, "busy": res.Busy}
		if err != nil {
			out["error"] = err.Error()
		}
		if werr := writeJSON(a.Out, out); werr != nil {
			return werr
		}
		if err != nil {
			return silentExit(1)
		}
		return nil
	}
	if err != nil {
		return err
	}
	switch {
	case res.Busy:
		fmt.Fprintln(a.Out, "another export flush is running; it sends the spool")
	default:
		fmt.Fprintf(a.Out, "sent %d records", res.Sent)
		if res.Dropped > 0 {
			fmt.Fprintf(a.Out, ", dropped %d (the spool was over its bound; the journal has them)", res.Dropped)
		}
		fmt.Fprintln(a.Out)
	}
	return nil
}
