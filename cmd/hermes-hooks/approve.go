package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"

	"github.com/hermes-hooks/hermes-hooks/internal/cli"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/protocol"
	"github.com/hermes-hooks/hermes-hooks/report"
)

type approveOptions struct {
	event            string
	all, force, json bool
	textOnly         bool // approvals by text only are meant (report.PrintTextOnly)
	project, yes     bool // approve --project [DIR] (--yes: without asking)
	// dir is where the hooks run from ("": the working directory);
	// jsonExtra is added to the --json answer (approve --project's plan).
	dir       string
	jsonExtra map[string]any
}

func newApproveCmd(a *app) *cobra.Command {
	var o approveOptions
	cmd := &cobra.Command{
		Use:     "approve COMMAND | --project [DIR]",
		Aliases: []string{"allow"},
		Short:   "Allowlist a hook command so dispatch runs it",
		Long: `Record your consent for a hook command (without a prompt; --project shows what
it approves and asks first). With no --event, every
event the command is configured under is approved; with --event, that one.
--all approves every hook of your own (your config, the settings and hook
files that are no repository's) that is not yet allowlisted; it never
approves a repository's hooks: it names each repository whose hooks are not
approved and the approve --project line that shows and approves them. A
command no hook runs for --event is refused unless --force (the approval
then waits for such a hook), and a script that does not exist cannot be
approved: its content is what an approval records (--force records it as
missing, which the script written later does not match: write it first).

The approval records the script's SHA-256: if the script changes later, dispatch
stops running it until you approve it again (list and doctor say why). COMMAND
names a configured command when it has the same words once ~ is expanded (so
the shell's expansion of ~/h.sh still names the config's ~/h.sh); the approval
is recorded under the config's own spelling. A command whose files cannot be
determined (make, a pipeline, python -m) is approved by its text only (⚠); a
fail_closed guard only with --text-only, and otherwise it blocks.

--project [DIR] approves every hook a repository declares (its
.hermes/hooks.yaml and the agents' hook files, such as .claude/settings.json,
that hermes-hooks reads for DIR, default the working directory) at once: it
lists each with its event, matcher, command and the files it runs with their
digests, then asks (y/N) at a terminal; elsewhere it approves only with --yes.
Such an approval holds in every clone and worktree of the same git repository
whose files have the same content; a changed file needs a new approval there.

Exit status: 0 when every hook asked for is approved or already was (the
repository's hooks --all leaves to --project do not count); 1 when a hook
was refused (a missing script, a text-only guard without --text-only, a file
changed since --project's plan), nothing was confirmed, no hook runs
COMMAND, or --project's hooks file (or a rule file it includes) does not load
and nothing else of the project did; 2 for a usage error or an unknown --event.`,
		Example: `  hermes-hooks approve --project
  hermes-hooks approve --project ~/src/app --yes --json
  hermes-hooks approve ~/.hermes/hooks/no-rm-rf.sh
  hermes-hooks approve "python3 ~/hooks/audit.py" --event post_tool_call
  hermes-hooks approve --all
  hermes-hooks approve ./guard.sh --json
  hermes-hooks approve --text-only "make -s guard" --event pre_tool_call`,
		Args: func(cmd *cobra.Command, args []string) error {
			if o.project {
				if o.all || o.event != "" || o.force {
					return usageErr("--project approves every hook of the project: drop --all, --event and --force", "--project cannot be combined with --all, --event or --force")
				}
				if len(args) > 1 {
					return exactArgs(1, "at most one DIR with --project")(cmd, args)
				}
				return nil
			}
			if o.yes {
				return usageErr("--yes confirms approve --project", "--yes needs --project")
			}
			if o.all {
				return exactArgs(0, "no COMMAND with --all")(cmd, args)
			}
			return exactArgs(1, "exactly one COMMAND (quote it if it has spaces)")(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.project {
				return runApproveProject(a, args, o)
			}
			if o.all {
				return runApproveAll(a, o)
			}
			return runApprove(a, args[0], o)
		},
	}
	cmd.Flags().StringVar(&o.event, "event", "", "approve the command for this event only")
	cmd.Flags().BoolVar(&o.all, "all", false, "approve every hook of your own that is not allowlisted yet (never a repository's: see --project)")
	cmd.Flags().BoolVar(&o.force, "force", false, "approve even though no configured hook runs the command for --event, or its script does not exist yet")
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON for scripts")
	cmd.Flags().BoolVar(&o.textOnly, "text-only", false, "approve a fail_closed guard whose files cannot be determined by its text only, knowingly")
	cmd.Flags().BoolVar(&o.project, "project", false, "approve every hook the project (DIR, default the working directory) declares, after listing them")
	cmd.Flags().BoolVarP(&o.yes, "yes", "y", false, "with --project: approve without asking (needed when standard input is not a terminal)")
	return cmd
}

// approveTarget is one (event, command) pair to approve.
type approveTarget struct {
	event   string
	command string
	status  *report.HookStatus // nil when not configured
	// reviewed is what the plan showed of the files the hook runs
	// (approve --project); nil when no plan was shown.
	reviewed []consent.FileRecord
}

func runApprove(a *app, command string, o approveOptions) error {
	cfg, store, statuses, err := a.inspectAll()
	if err != nil {
		return err
	}
	var targets []approveTarget
	seen := map[string]bool{}
	add := func(event string, st *report.HookStatus) {
		cmd := command
		if st != nil {
			// Key the approval by the config's own spelling: that is the
			// string dispatch looks up.
			cmd = st.Entry.Text()
		}
		if !seen[event+"\x00"+cmd] {
			seen[event+"\x00"+cmd] = true
			targets = append(targets, approveTarget{event: event, command: cmd, status: st})
		}
	}
	if o.event != "" {
		ev, ok := protocol.Lookup(o.event)
		if !ok {
			fmt.Fprintf(a.Out, "Unknown event: %s\n", show(report.PyRepr(o.event)))
			if s := protocol.SuggestEvent(o.event); s != "" {
				fmt.Fprintf(a.Out, "Did you mean: %s\n", show(s))
			}
			fmt.Fprintf(a.Out, "Valid events: %s\n", strings.Join(protocol.ValidEventNames(), ", "))
			return silentExit(2)
		}
		// Approvals are keyed by the event name as declared: --event
		// pre_tool_call approves a hook declared under PreToolUse too.
		for i := range statuses {
			st := &statuses[i]
			if cmdpin.SameCommand(st.Entry.Text(), command) && st.Entry.Event == ev {
				add(st.Entry.DeclaredAs, st)
			}
		}
		if len(targets) == 0 {
			if handled, err := approveRule(a, store, statuses, command, o.event, o.json); handled {
				return err
			}
			if !o.force {
				hints, suffix := noHookText(statuses, command)
				if o.json {
					return noHookJSON(a, store, command, o.event, fmt.Sprintf("no hook in %s runs the command %s for %s (check the spelling, or approve it for a hook you are about to add with --force)%s", a.configLabel(), command, o.event, suffix))
				}
				fmt.Fprintf(a.Out, "No hook in %s runs the command %s for %s.\n", show(a.configLabel()), show(command), show(o.event))
				printLines(a, hints)
				fmt.Fprintln(a.Out, "Check the spelling (hermes-hooks list shows what is configured), or approve it anyway for a hook you are about to add:")
				fmt.Fprintf(a.Out, "  hermes-hooks approve %s --event %s --force\n", show(shquote.IfNeeded(command)), show(shquote.IfNeeded(o.event)))
				return silentExit(1)
			}
			add(o.event, nil)
		}
	} else {
		for i := range statuses {
			if cmdpin.SameCommand(statuses[i].Entry.Text(), command) {
				add(statuses[i].Entry.DeclaredAs, &statuses[i])
			}
		}
		if len(targets) == 0 {
			if handled, err := approveRule(a, store, statuses, command, o.event, o.json); handled {
				return err
			}
			hints, suffix := noHookText(statuses, command)
			if o.json {
				return noHookJSON(a, store, command, "", fmt.Sprintf("no hook in %s runs the command %s (the command must match the config exactly; to approve it anyway for a hook you are about to add, name the event with --event and pass --force)%s", a.configLabel(), command, suffix))
			}
			fmt.Fprintf(a.Out, "No hook in %s runs the command: %s\n", show(a.configLabel()), show(command))
			printLines(a, hints)
			// Both flags at once: --event alone is refused again, asking
			// for --force (the branch above), a second round trip.
			fmt.Fprintln(a.Out, "The command must match the config exactly. To approve it anyway for a hook you are about to add, name its event:")
			fmt.Fprintf(a.Out, "  hermes-hooks approve %s --event EVENT --force\n", show(shquote.IfNeeded(command)))
			return silentExit(1)
		}
	}
	targets, review := shownWholeOnly(a, ownBeforeRepository(a, targets))
	if len(targets) == 0 {
		// Each was named above, with the approve --project line.
		if o.json {
			return noHookJSON(a, store, command, o.event, "not approved: "+command+" names only a repository's hooks whose approval pins more than this text (a rule's decision and message, an http hook's whole URL); review and approve them with: "+review)
		}
		return silentExit(1)
	}
	// Report the command as the config spells it when every target does.
	for _, t := range targets {
		if t.command != targets[0].command {
			return approveTargets(a, cfg, store, targets, command, o)
		}
	}
	return approveTargets(a, cfg, store, targets, targets[0].command, o)
}

// approvedJSON is one pair in approve --json.
type approvedJSON struct {
	Event   string `json:"event"`
	Command string `json:"command"`
	// Result: approved, re-approved, already (allowlisted and unchanged)
	// or refused (Error says why).
	Result string `json:"result"`
	Error  string `json:"error,omitempty"`
	// TextOnly: approved by its text only (why).
	TextOnly string `json:"text_only,omitempty"`
}

// noHookJSON is --json's answer when no hook runs the command: approve's
// usual object with nothing approved and why in "error", exit 1 (the
// words the text output gives would not parse).
func noHookJSON(a *app, store *consent.Store, command, event, why string) error {
	answer := map[string]any{"results": []any{}, "approved": 0, "refused": 0, "allowlist": store.Path(),
		"command": command, "event": event, "error": why}
	if err := writeJSON(a.Out, answer); err != nil {
		return err
	}
	return silentExit(1)
}

// approvedVerb is how approve says it approved a hook whose status
// (nil: unknown) was st, and the result --json gives.
func approvedVerb(st *report.HookStatus) (verb, result string) {
	switch {
	case st == nil || !st.Approved:
		return "approved", "approved"
	case st.Entry.Rule() != nil:
		// A rule runs no script: its text or definition changed.
		return "re-approved (the rule changed since the last approval)", "re-approved"
	}
	return "re-approved (script changed since the last approval)", "re-approved"
}

// upToDate reports whether st's approval stands as it is, so approve has
// nothing to record for it: approved, nothing it runs changed since, and
// a fail_closed guard approved by its text only acknowledged as such.
func upToDate(st *report.HookStatus) bool {
	return st != nil && st.Approved && st.Drift.Kind != consent.DriftHash && st.Drift.Kind != consent.DriftMtime &&
		(!st.NeedsTextOnlyAck() || st.Approval.TextOnlyAck)
}

// approveTargets approves each pair that is not already allowlisted with an
// unchanged script, and reports what it did. A pair whose script does not
// exist is refused (exit 1) unless force: an approval records the content
// it runs, and one of nothing lets the hook run only after a new approval.
func approveTargets(a *app, cfg *hookconfig.Config, store *consent.Store, targets []approveTarget, command string, o approveOptions) error {
	asJSON, force := o.json, o.force
	approved, refused, allowlisted := 0, 0, 0
	var results []approvedJSON
	out := a.Out
	if asJSON {
		out = io.Discard
	}
	wd := cli.Cwd()
	if o.dir != "" {
		wd = o.dir
	}
	var rules ruleKeys
	for _, t := range targets {
		r := approvedJSON{Event: t.event, Command: t.command}
		if why := rules.taken(t.status); why != "" {
			fmt.Fprintf(out, "  ✗ not approved: [%s] %s: %s\n", show(t.event), show(t.command), why)
			r.Result, r.Error = "refused", why
			results = append(results, r)
			refused++
			continue
		}
		needAck := t.status != nil && t.status.NeedsTextOnlyAck()
		if st := t.status; upToDate(st) {
			if st.NoApproval && st.Entry.Unreadable() {
				fmt.Fprintf(out, "  = needs no approval (it runs nothing; fix it: it blocks what it matches): [%s] %s\n", show(t.event), show(t.command))
			} else if st.NoApproval {
				fmt.Fprintf(out, "  = needs no approval (a rule of your own config): [%s] %s\n", show(t.event), show(t.command))
			} else {
				fmt.Fprintf(out, "  = already allowlisted: [%s] %s\n", show(t.event), show(t.command))
				allowlisted++
			}
			r.Result = "already"
			results = append(results, r)
			rules.add(t.status)
			continue
		}
		hook := consent.Request{Event: t.event, Command: t.command, Dir: wd}
		if t.status != nil {
			hook = dispatcher.ConsentRequest(t.status.Entry, wd, nil)
		}
		if missing := report.MissingScript(hook, t.status); missing != "" && !force {
			fmt.Fprintf(out, "  ✗ not approved: [%s] %s: %s does not exist (an approval records the script's content; fix the path, or create the script first)\n",
				show(t.event), show(t.command), show(missing))
			r.Result, r.Error = "refused", missing+" does not exist"
			results = append(results, r)
			refused++
			continue
		}
		if needAck && !o.textOnly {
			report.PrintTextOnly(out, t.status.Entry, t.event, t.command, t.status.Entry.Scope, t.status.TextOnly, true)
			r.Result, r.Error, r.TextOnly = "refused", "a fail_closed guard approved by its text only needs --text-only", t.status.TextOnly
			results = append(results, r)
			refused++
			continue
		}
		hook.AckTextOnly, hook.Reviewed = o.textOnly, t.reviewed
		res, err := store.ApproveHook(hook)
		if res.Backup != "" {
			a.Warn(consent.BackupNotice(store.Path(), res.Backup))
		}
		if changed := (*consent.ChangedSinceReviewError)(nil); errors.As(err, &changed) {
			fmt.Fprintf(out, "  ✗ not approved: [%s] %s: %s; review it again (hermes-hooks approve --project %s)\n", show(t.event), show(t.command), show(changed.Error()), shquote.IfNeeded(o.dir))
			r.Result, r.Error = "refused", changed.Error()
			results = append(results, r)
			refused++
			continue
		}
		if err != nil {
			return errors.New(consent.PersistWarning(store.Path(), err))
		}
		approved++
		rules.add(t.status)
		var verb string
		verb, r.Result = approvedVerb(t.status)
		r.TextOnly = res.TextOnly
		results = append(results, r)
		fmt.Fprintf(out, "  ✓ %s: [%s] %s\n", verb, show(t.event), show(t.command))
		if t.status != nil && t.status.Entry.Unreadable() {
			// It runs no file whose content could change unnoticed.
			fmt.Fprintln(out, "    it runs nothing: it blocks the calls it matches until the entry is fixed ("+show(t.status.Entry.CannotRun())+")")
		} else if t.status == nil || t.status.Entry.Rule() == nil {
			// A rule's text is all it runs, and its approval pins it.
			var e *hookconfig.Entry
			if t.status != nil {
				e = t.status.Entry
			}
			report.PrintTextOnly(out, e, t.event, t.command, consent.Scope{}, res.TextOnly, false)
		}
		if t.status == nil {
			fmt.Fprintf(out, "    (no hook in %s runs this command for %s yet; the approval waits for one)\n", show(a.configLabel()), show(t.event))
		}
	}
	switch {
	case asJSON:
		answer := map[string]any{"results": results, "approved": approved, "refused": refused, "allowlist": store.Path()}
		for k, v := range o.jsonExtra {
			answer[k] = v
		}
		if err := writeJSON(a.Out, answer); err != nil {
			return err
		}
	case approved == 0 && refused == 0 && allowlisted == 0:
		// Rules of the user's own config only: none is allowlisted.
		fmt.Fprintln(out, "Nothing to do: they need no approval.")
	case approved == 0 && refused == 0:
		fmt.Fprintln(out, "Nothing to do: already allowlisted.")
	case approved == 0:
	case command != "":
		fmt.Fprintf(out, "Approved %s for: %s (now allowlisted in %s)\n", report.Count(approved, "entry", "entries"), show(command), show(store.Path()))
	default:
		fmt.Fprintf(out, "Approved %s (now allowlisted in %s)\n", report.Count(approved, "entry", "entries"), show(store.Path()))
	}
	if refused > 0 {
		return silentExit(1)
	}
	return nil
}

// ruleKeys are the repository rules approve approved in this run, by
// their approval's key (event, expression, repository). A repository's
// rule is approved by its expression with its decision, message, id and
// mode pinned: of two rules with one expression and other decisions,
// messages, ids or modes, approving the second overwrites the first's
// approval, so approve said "✓ approved" of both while the first then
// read "changed since approval" (a fail_closed one refusing what it
// matches).
type ruleKeys map[string]*hookconfig.Entry

func ruleKey(st *report.HookStatus) (string, *hookconfig.Entry) {
	if st == nil || st.Entry.Rule() == nil || st.Entry.Scope.Global() {
		return "", nil
	}
	e := st.Entry
	return e.DeclaredAs + "\x00" + e.Text() + "\x00" + e.Scope.Project, e
}

// taken says why st's rule may not be approved: another rule holding its
// key was approved above ("" when none was, or it is the same rule).
func (k ruleKeys) taken(st *report.HookStatus) string {
	key, e := ruleKey(st)
	f := k[key]
	if f == nil {
		return ""
	}
	if hookconfig.SameRuleApproval(f, e) {
		return ""
	}
	return "another rule of this repository with the same expression was approved above, and an approval is keyed by the expression: " +
		"only one of them can be approved at a time (make the expressions differ, or merge the rules)"
}

func (k *ruleKeys) add(st *report.HookStatus) {
	key, e := ruleKey(st)
	if e == nil {
		return
	}
	if *k == nil {
		*k = ruleKeys{}
	}
	if (*k)[key] == nil {
		(*k)[key] = e
	}
}
