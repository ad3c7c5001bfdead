package main

import (
	"fmt"
	"slices"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/spf13/cobra"
)

func contains(list []string, s string) bool { return slices.Contains(list, s) }

func newRevokeCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:     "revoke COMMAND",
		Aliases: []string{"remove", "rm"},
		Short:   "Remove a command's allowlist entries (every event)",
		Long: `Remove every allowlist entry for COMMAND, whatever its event, and for every
spelling of it with the same words once ~ is expanded (a shell turns ~/h.sh
into /home/you/h.sh before hermes-hooks sees it). The next dispatch no longer
runs it; a running 'hermes-hooks serve' notices at once.`,
		Example: `  hermes-hooks revoke ~/.hermes/hooks/block-rm-rf.sh
  hermes-hooks rm "python3 ~/hooks/audit.py"`,
		Args: exactArgs(1, "exactly one COMMAND (quote it if it has spaces)"),
		RunE: func(cmd *cobra.Command, args []string) error { return runRevoke(a, args[0]) },
	}
}

func runRevoke(a *app, command string) error {
	store, err := a.Store()
	if err != nil {
		return err
	}
	// Revoke the command as typed and every allowlisted spelling of it (a
	// shell turns ~/h.sh into /home/me/h.sh before we see it).
	spellings := []string{command}
	if allow, err := store.Load(); err == nil {
		for _, e := range allow.Approvals {
			if e.Command != command && consent.SameCommand(e.Command, command) && !contains(spellings, e.Command) {
				spellings = append(spellings, e.Command)
			}
		}
	}
	var res consent.RevokeResult
	for _, c := range spellings {
		r, err := store.RevokeDetail(c)
		if r.Backup != "" {
			a.Warn(consent.BackupNotice(store.Path(), r.Backup))
		}
		if err != nil {
			// Not PersistWarning: that one speaks of an approval that holds
			// for this run, which is the opposite of what happened.
			return &exitError{Code: 1, Msg: fmt.Sprintf("could not update the allowlist %s: %v; nothing was revoked", store.Path(), err)}
		}
		res.Removed += r.Removed
	}
	if res.Removed == 0 {
		fmt.Fprintf(a.Out, "No allowlist entry found for command: %s\n", show(command))
		return nil
	}
	fmt.Fprintf(a.Out, "Removed %d allowlist entry/entries for: %s\n", res.Removed, show(command))
	fmt.Fprintln(a.Out, "Note: the next dispatch no longer runs it; a running `hermes-hooks serve` sees the change at once.")
	return nil
}
