package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/internal/cli"
	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
	"github.com/hermes-hooks/hermes-hooks/internal/suggest"
	"github.com/hermes-hooks/hermes-hooks/protocol"
	"github.com/hermes-hooks/hermes-hooks/report"
)

type revokeOptions struct {
	event       string
	json        bool
	allProjects bool // every project's approvals, not only this one's
}

func newRevokeCmd(a *app) *cobra.Command {
	var o revokeOptions
	cmd := &cobra.Command{
		Use:     "revoke COMMAND",
		Aliases: []string{"remove", "rm"},
		Short:   "Remove a command's allowlist entries (this project's and your own; every event, or one with --event)",
		Long: `Remove the allowlist entries for COMMAND, whatever their event (with --event, the
entry for that event only, under any of its names: pre_tool_call and
PreToolUse are one event), and for every spelling of it with the same words
once ~ is expanded (a shell turns ~/h.sh into /home/you/h.sh before
hermes-hooks sees it).

Which entries: your own config's, and, run in a project, that project's (its
.hermes/hooks.yaml and the agents' hook files hermes-hooks reads there, and
an approval given in another clone or worktree of the repository that holds
here too). Another repository's hook of the same command text is a
different hook: its approval stays, and revoke names it as kept.
--all-projects takes every project's entries for COMMAND as well. Each entry
removed is named with the project and file it belonged to. When nothing is
removed, revoke exits 1 and names the allowlisted commands closest to
COMMAND.

The next dispatch no longer runs it; a running 'hermes-hooks serve' notices
at once.`,
		Example: `  hermes-hooks revoke ~/.hermes/hooks/no-rm-rf.sh
  hermes-hooks revoke ./audit.sh --event post_tool_call
  hermes-hooks revoke .hermes/guard.sh --all-projects
  hermes-hooks rm "python3 ~/hooks/audit.py" --json`,
		Args: exactArgs(1, "exactly one COMMAND (quote it if it has spaces)"),
		RunE: func(cmd *cobra.Command, args []string) error { return runRevoke(a, args[0], o) },
	}
	cmd.Flags().StringVar(&o.event, "event", "", "revoke the approval for this event only")
	cmd.Flags().BoolVar(&o.allProjects, "all-projects", false, "revoke every project's approvals of COMMAND too, not only this project's")
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
	// What revoke reaches: every project's with --all-projects, else the
	// global entries and this project's. The same command text in another
	// repository is another hook (consent.Scope): taking its approval from
	// here left that repository's guard refusing nothing, unsaid.
	var roots []string
	var pick func(consent.Entry) bool
	if !o.allProjects {
		roots = projectsHere(a)
		pick = func(e consent.Entry) bool { return e.Scope.Global() || slices.ContainsFunc(roots, e.OfProject) }
	}
	// Revoke the command as typed and every allowlisted spelling of it (a
	// shell turns ~/h.sh into /home/me/h.sh before we see it).
	allow, _ := store.Load()
	spellings := []string{command}
	for _, e := range slices.Concat(allow.Approvals, allow.Projects) {
		if e.Command != command && cmdpin.SameCommand(e.Command, command) && !slices.Contains(spellings, e.Command) {
			spellings = append(spellings, e.Command)
		}
	}
	var res consent.RevokeResult
	for _, c := range spellings {
		r, err := store.RevokeSelected(c, only, pick)
		if r.Backup != "" {
			a.Warn(consent.BackupNotice(store.Path(), r.Backup))
		}
		if err != nil {
			// Not PersistWarning: that one speaks of an approval that holds
			// for this run, which is the opposite of what happened.
			return fmt.Errorf("could not update the allowlist %s: %w; nothing was revoked", store.Path(), err)
		}
		res.Removed += r.Removed
		res.Entries = append(res.Entries, r.Entries...)
		res.Kept = append(res.Kept, r.Kept...)
	}
	var dym []string
	if res.Removed == 0 && len(res.Kept) == 0 {
		dym = revokeSuggestions(allow, command, o.event, pick)
	}
	if o.json {
		err = writeRevokeJSON(a, store, command, o.event, &res, dym)
	} else {
		printRevoke(a, command, o.event, &res, roots, dym)
	}
	if err == nil && res.Removed == 0 {
		// Nothing revoked is a failure, as approve's "no hook runs it"
		// is: a typo must not read as done.
		return silentExit(1)
	}
	return err
}

// projectsHere are the roots of the projects whose approvals revoke takes
// by default: each project whose hooks the config reads in the working
// directory (its .hermes/hooks.yaml, the agents' hook files, one that does
// not load), and the git repository around it, whose hooks file may be
// gone while its approvals stay.
func projectsHere(a *app) []string {
	wd := cli.Cwd()
	var roots []string
	add := func(r string) {
		if r != "" && !slices.Contains(roots, r) {
			roots = append(roots, r)
		}
	}
	if cfg, err := a.LoadConfigQuiet(); err == nil {
		for _, e := range cfg.Entries {
			if !e.Scope.Global() {
				add(e.Scope.Project)
			}
		}
		for _, u := range cfg.Unloaded {
			add(u.Project)
		}
	}
	if p := hookconfig.FindProjectHooks(wd); p != "" {
		add(filepath.Dir(filepath.Dir(p)))
	}
	if top, inRepo := install.ProjectDir(wd, ""); inRepo {
		add(top)
	}
	return roots
}

// printRevoke says what revoke removed, each entry with where it
// belonged, what it kept of other projects, and what it may have meant.
func printRevoke(a *app, command, event string, res *consent.RevokeResult, roots, dym []string) {
	switch {
	case res.Removed == 0 && event != "":
		fmt.Fprintf(a.Out, "No allowlist entry found for command: %s (event %s)\n", show(command), show(event))
	case res.Removed == 0:
		fmt.Fprintf(a.Out, "No allowlist entry found for command: %s\n", show(command))
	default:
		fmt.Fprintf(a.Out, "Removed %s for: %s\n", report.Count(res.Removed, "allowlist entry", "allowlist entries"), show(command))
		for _, e := range res.Entries {
			fmt.Fprintf(a.Out, "  [%s] %s\n", show(e.Event), show(approvalPlace(e, roots)))
		}
	}
	if len(res.Kept) > 0 {
		fmt.Fprintf(a.Out, "Kept %s of other projects (run revoke there, or add --all-projects):\n", report.Count(len(res.Kept), "entry", "entries"))
		for _, e := range res.Kept {
			fmt.Fprintf(a.Out, "  [%s] %s\n", show(e.Event), show(approvalPlace(e, nil)))
		}
	}
	if len(dym) > 0 {
		fmt.Fprintln(a.Out, "Did you mean:")
		for _, d := range dym {
			fmt.Fprintln(a.Out, "  "+show(d))
		}
	}
	if res.Removed > 0 {
		fmt.Fprintln(a.Out, "Note: the next dispatch no longer runs it; a running `hermes-hooks serve` sees the change at once.")
	}
}

// approvalPlace is where an approval belonged: your own config, or a
// project and its file (relative to the project when inside it); one
// given in another checkout of a project in roots says so.
func approvalPlace(e consent.Entry, roots []string) string {
	if e.Scope.Global() {
		return "of your own config"
	}
	s := "of the project " + e.Scope.Project
	if !slices.Contains(roots, e.Scope.Project) && slices.ContainsFunc(roots, e.OfProject) {
		s += ", another checkout of this repository"
	}
	src := e.Scope.Source
	if rel, err := filepath.Rel(e.Scope.Project, src); err == nil && filepath.IsLocal(rel) {
		src = filepath.ToSlash(rel)
	}
	return s + " (" + src + ")"
}

// revokedJSON is one entry in revoke --json's "entries" and "kept".
type revokedJSON struct {
	Event   string `json:"event"`
	Command string `json:"command"`
	// Project and Source: the project and file of a project's approval
	// (none for your own config's).
	Project string `json:"project,omitempty"`
	Source  string `json:"source,omitempty"`
}

func writeRevokeJSON(a *app, store *consent.Store, command, event string, res *consent.RevokeResult, dym []string) error {
	list := func(es []consent.Entry) []revokedJSON {
		out := make([]revokedJSON, 0, len(es))
		for _, e := range es {
			out = append(out, revokedJSON{Event: e.Event, Command: e.Command, Project: e.Scope.Project, Source: e.Scope.Source})
		}
		return out
	}
	answer := map[string]any{"command": command, "event": event, "removed": res.Removed, "allowlist": store.Path(),
		"entries": list(res.Entries), "kept": list(res.Kept)}
	if len(dym) > 0 {
		answer["did_you_mean"] = dym
	}
	return writeJSON(a.Out, answer)
}

// revokeSuggestions are the allowlisted commands within revoke's reach
// (pick; nil: every entry) that command may have meant, when it matched
// none: those whose file has its name, with or without an extension (a
// newcomer types no-rm-rf for ~/.hermes/hooks/no-rm-rf.sh), else the
// closest by difflib's ratio, as Hermes suggests; each as the command line
// to run. Compared with ~ expanded, as the shell expanded what was typed.
func revokeSuggestions(f *consent.File, command, event string, pick func(consent.Entry) bool) []string {
	home, _ := os.UserHomeDir()
	expand := func(c string) string {
		if rest, ok := strings.CutPrefix(c, "~/"); ok && home != "" {
			return filepath.Join(home, rest)
		}
		return c
	}
	stem := func(c string) string {
		b := filepath.Base(c)
		return strings.TrimSuffix(b, filepath.Ext(b))
	}
	var cands, expanded []string
	for _, e := range slices.Concat(f.Approvals, f.Projects) {
		if e.Command == "" || slices.Contains(cands, e.Command) || (pick != nil && !pick(e)) {
			continue
		}
		cands, expanded = append(cands, e.Command), append(expanded, expand(e.Command))
	}
	var meant []string
	if want := stem(command); want != "" && want != "." {
		for i, c := range cands {
			if stem(expanded[i]) == want {
				meant = append(meant, c)
			}
		}
	}
	if len(meant) == 0 {
		if s := suggest.Closest(command, expanded); s != "" {
			meant = append(meant, cands[slices.Index(expanded, s)])
		}
	}
	lines := make([]string, 0, len(meant))
	for _, c := range meant {
		line := "hermes-hooks revoke " + pasteHome(c)
		if event != "" {
			line += " --event " + shquote.IfNeeded(event)
		}
		lines = append(lines, line)
	}
	return lines
}
