package main

import (
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/protocol"
	"github.com/hermes-hooks/hermes-hooks/report"
)

type revokeOptions struct {
	event string
	json  bool
}

func newRevokeCmd(a *app) *cobra.Command {
	var o revokeOptions
	cmd := &cobra.Command{
		Use:     "revoke COMMAND",
		Aliases: []string{"remove", "rm"},
		Short:   "Remove a command's allowlist entries (every event, or one with --event)",
		Long: `Remove every allowlist entry for COMMAND, whatever its event (with --event, the
entry for that event only, under any of its names: pre_tool_call and
PreToolUse are one event), and for every spelling of it with the same words
once ~ is expanded (a shell turns ~/h.sh into /home/you/h.sh before
hermes-hooks sees it). The next dispatch no longer runs it; a running
'hermes-hooks serve' notices at once.`,
		Example: `  hermes-hooks revoke ~/.hermes/hooks/no-rm-rf.sh
  hermes-hooks revoke ./audit.sh --event post_tool_call
  hermes-hooks rm "python3 ~/hooks/audit.py" --json`,
		Args: exactArgs(1, "exactly one COMMAND (quote it if it has spaces)"),
		RunE: func(cmd *cobra.Command, args []string) error { return runRevoke(a, args[0], o) },
	}
	cmd.Flags().StringVar(&o.event, "event", "", "revoke the approval for this event only")
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON for scripts")
	return cmd
}

func runRevoke(a *app, command string, o revokeOptions) error {
	var only func(string) bool
	if o.event != "" {
		ev, err := lookupEventFlag("--event", o.event)
		if err != nil {
			return err
		}
		only = func(name string) bool {
			e, ok := protocol.Lookup(name)
			return ok && e == ev
		}
	}
	store, err := a.Store()
	if err != nil {
		return err
	}
	// Revoke the command as typed and every allowlisted spelling of it (a
	// shell turns ~/h.sh into /home/me/h.sh before we see it).
	spellings := []string{command}
	if allow, err := store.Load(); err == nil {
		for _, e := range slices.Concat(allow.Approvals, allow.Projects) {
			if e.Command != command && cmdpin.SameCommand(e.Command, command) && !slices.Contains(spellings, e.Command) {
				spellings = append(spellings, e.Command)
			}
		}
	}
	var res consent.RevokeResult
	for _, c := range spellings {
		r, err := store.RevokeWhere(c, only)
		if r.Backup != "" {
			a.Warn(consent.BackupNotice(store.Path(), r.Backup))
		}
		if err != nil {
			// Not PersistWarning: that one speaks of an approval that holds
			// for this run, which is the opposite of what happened.
			return fmt.Errorf("could not update the allowlist %s: %w; nothing was revoked", store.Path(), err)
		}
		res.Removed += r.Removed
	}
	if o.json {
		return writeJSON(a.Out, map[string]any{"command": command, "event": o.event, "removed": res.Removed, "allowlist": store.Path()})
	}
	if res.Removed == 0 {
		if o.event != "" {
			fmt.Fprintf(a.Out, "No allowlist entry found for command: %s (event %s)\n", show(command), show(o.event))
			return nil
		}
		fmt.Fprintf(a.Out, "No allowlist entry found for command: %s\n", show(command))
		return nil
	}
	fmt.Fprintf(a.Out, "Removed %s for: %s\n", report.Count(res.Removed, "allowlist entry", "allowlist entries"), show(command))
	fmt.Fprintln(a.Out, "Note: the next dispatch no longer runs it; a running `hermes-hooks serve` sees the change at once.")
	return nil
}
