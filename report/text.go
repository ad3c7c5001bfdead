package report

// What the verbs print for people, as text: pure formatting of what the
// rest of this package (and the journal) computes, so that a verb is flags,
// one call and one of these. Everything from configs, allowlists, hooks
// and payloads is terminal-escaped (show).

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/rule"
	"github.com/hermes-hooks/hermes-hooks/internal/termsafe"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
)

// show escapes text from configs, allowlists, hooks and arguments for the
// terminal (see package termsafe): no config can make a line lie.
func show(s string) string { return termsafe.Escape(s) }

// Count says "1 error" or "2 errors": no "(s)".
func Count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// PyRepr is Python's repr of a string: single quotes unless the string has
// a single quote and no double quote; backslashes doubled.
func PyRepr(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	if strings.Contains(s, "'") && !strings.Contains(s, `"`) {
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(s, "'", `\'`) + "'"
}

// PrintList prints Hermes' list layout: events sorted, hooks in config
// order, consent marks, approval time and drift; plus the dialect and the
// source file where they are not the plain Hermes defaults.
func PrintList(w io.Writer, label string, cfg *hookconfig.Config, statuses []HookStatus) {
	PrintManaged(w, cfg)
	// After the hooks, or in place of them: never hidden by an empty list.
	defer printForeign(w, ForeignLines(cfg))
	// A repository's hooks file that does not load lists none of its
	// hooks: say which, rather than let an empty list read as a
	// repository with no hooks (its gating calls may be refused meanwhile).
	unloaded := unloadedFiles(cfg)
	defer printUnloaded(w, unloaded)
	if len(statuses) == 0 {
		printNoHooks(w, label, unloaded)
		return
	}
	fmt.Fprintf(w, "Configured shell hooks (%d total):\n\n", len(statuses))
	// One group per event: its Hermes name and its Claude name (or an
	// alias) are one event, labelled with every name it was declared by.
	byEvent := map[string][]*HookStatus{}
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
			fmt.Fprintf(&b, "    - %s", show(e.Text()))
			if e.Matcher != "" {
				fmt.Fprintf(&b, " matcher=%s", show(PyRepr(e.Matcher)))
			}
			if d := ruleBound(e); d > 0 {
				fmt.Fprintf(&b, " (bound=%ss", strconv.FormatFloat(d.Seconds(), 'f', -1, 64))
			} else {
				fmt.Fprintf(&b, " (timeout=%ss", e.TimeoutSeconds())
			}
			if e.Dialect != "hermes" {
				fmt.Fprintf(&b, ", %s dialect", e.Dialect)
			}
			if e.FailClosed {
				b.WriteString(", fail_closed")
			}
			if e.Priority != 0 {
				fmt.Fprintf(&b, ", priority=%d", e.Priority)
			}
			if w := e.Worker(); w != nil {
				b.WriteString(", worker")
				if w.Workers > 1 {
					fmt.Fprintf(&b, " ×%d", w.Workers)
				}
			}
			if e.Shadow {
				b.WriteString(", shadow")
			}
			if e.Duplicate {
				b.WriteString(", duplicate: runs once")
			}
			switch {
			case e.Scope.Managed:
				b.WriteString(", ✓ managed)")
			case st.Approved && st.Drift.Kind == consent.DriftHash:
				b.WriteString(", ✗ changed since approval)")
			case st.TextOnlyUnacknowledged():
				b.WriteString(", ✗ blocks: approved by its text only without --text-only)")
			case st.NoApproval && e.Unreadable():
				b.WriteString(", ✗ " + e.CannotRun() + ": blocks what it matches)")
			case st.NoApproval:
				b.WriteString(", ✓ a rule of your config: needs no approval)")
			case st.Approved && st.Elsewhere:
				b.WriteString(", ✓ allowlisted in another checkout of this repository)")
			case st.Approved:
				b.WriteString(", ✓ allowlisted)")
			default:
				b.WriteString(", ✗ not allowlisted)")
			}
			fmt.Fprintln(w, b.String())
			if e.Source != "" && e.Source != cfg.Path {
				fmt.Fprintf(w, "      from: %s\n", show(e.Source))
			}
			if by := RunByText(e); by != "" {
				fmt.Fprintf(w, "      %s\n", show(by))
			}
			if st.Approved && st.Approval.ApprovedAt != "" {
				fmt.Fprintf(w, "      approved_at: %s\n", show(st.Approval.ApprovedAt))
			}
			if r := e.Rule(); r != nil {
				fmt.Fprintf(w, "      %s\n", ruleDecisionLine(r))
			}
			if e.Rule() != nil && st.StartProblem != "" {
				fmt.Fprintf(w, "      ✗ rule does not compile: %s\n", show(st.StartProblem))
			}
			if st.TextOnly != "" {
				fmt.Fprintf(w, "      ⚠ approved by its text only (%s)%s\n", show(st.TextOnly), textOnlyTail(e, ": what it runs can change without notice"))
			}
			if st.TextOnlyUnacknowledged() {
				fmt.Fprintf(w, "      ✗ a fail_closed guard: blocks the events it guards until approved knowingly: %s\n",
					show(consent.ApproveTextOnlyHintFor(e.DeclaredAs, e.Text(), e.Scope)))
			}
			switch {
			case st.Approved && st.Drift.Kind == consent.DriftMtime:
				fmt.Fprintf(w, "      ⚠ %s — run `hermes-hooks doctor` to re-validate\n", show(st.Drift.Message()))
			case st.Approved && st.Drift.Kind == consent.DriftHash:
				fmt.Fprintf(w, "      ✗ %s — will NOT run until re-approved%s: %s\n", show(st.Drift.Message()), refusesMeanwhile(e),
					show(approveHint(e)))
			}
		}
		fmt.Fprintln(w)
	}
}

// refusesMeanwhile says, of a changed hook that will not run, that as a
// fail_closed guard it refuses what it guards meanwhile: not "off".
func refusesMeanwhile(e *hookconfig.Entry) string {
	if e.FailClosed && e.Event.Gating() {
		return "; a fail_closed guard, it refuses every " + e.Event.Name + " it matches meanwhile"
	}
	return ""
}

// TimeoutSeconds is the time e is given, as list, list --json and
// /v1/stats show it (doctor --live's "slow" is measured against it): a
// rule's bound, else the entry's timeout.
func TimeoutSeconds(e *hookconfig.Entry) float64 {
	if d := ruleBound(e); d > 0 {
		return d.Seconds()
	}
	return e.Timeout.Seconds()
}

// ruleBound is the bound a rule is decided within: its own, or the
// shorter timeout its entry sets; 0 for any other entry.
func ruleBound(e *hookconfig.Entry) time.Duration {
	if e.Rule() != nil {
		return min(e.Timeout, rule.DefaultTimeout)
	}
	return 0
}

// maxProblemShown bounds the characters of a problem printed for a person:
// a config may hold a megabyte-long command or key, which every message
// about it would repeat.
const maxProblemShown = 1000

// bounded is msg cut to maxProblemShown characters, saying how long it was
// and where it is whole.
func bounded(msg string) string {
	if len(msg) <= maxProblemShown || utf8.RuneCountInString(msg) <= maxProblemShown {
		return msg
	}
	return textutil.Truncate(msg, maxProblemShown) + " (" + strconv.Itoa(len(msg)) + " bytes; --json shows it whole)"
}

// PrintProblems prints validate's report: each problem with its file and
// line, then the tally.
func PrintProblems(w io.Writer, problems []Problem, errs, files int) {
	for _, p := range problems {
		where := p.File
		if p.Line > 0 {
			where += ":" + strconv.Itoa(p.Line)
			if p.Column > 0 {
				where += ":" + strconv.Itoa(p.Column)
			}
		}
		if where != "" {
			where += ": "
		}
		fmt.Fprintf(w, "%s%s: %s\n", show(where), p.Level, show(bounded(p.Message)))
	}
	warnings := len(problems) - errs
	switch {
	case len(problems) == 0:
		fmt.Fprintf(w, "✓ no problems in %s.\n", Count(files, "config file", "config files"))
	default:
		fmt.Fprintf(w, "\n%s, %s.\n", Count(errs, "error", "errors"), Count(warnings, "warning", "warnings"))
	}
}

// PrintDoctor prints doctor's report: each hook with its checks, then the
// verdict.
func PrintDoctor(w io.Writer, results []DoctorResult, problems int) {
	if len(results) == 0 {
		fmt.Fprintln(w, "No shell hooks configured — nothing to check.")
		return
	}
	fmt.Fprintf(w, "Checking %s...\n\n", Count(len(results), "configured shell hook", "configured shell hooks"))
	for _, r := range results {
		fmt.Fprintf(w, "  [%s] %s\n", show(r.Status.Entry.DeclaredAs), show(ExampleHeading(r.Status.Entry)))
		for _, c := range r.Checks {
			fmt.Fprintf(w, "      %s %s\n", c.Level.Symbol(), show(c.Text))
		}
		fmt.Fprintln(w)
	}
	if problems > 0 {
		fmt.Fprintf(w, "%s found.  Fix before relying on these hooks.\n", Count(problems, "issue", "issues"))
		return
	}
	fmt.Fprintln(w, "All shell hooks look healthy.")
}

// unloadedFiles are the repositories' hooks files that did not load, once
// each.
func unloadedFiles(cfg *hookconfig.Config) []string {
	var files []string
	for _, u := range cfg.Unloaded {
		if u.File != "" && !slices.Contains(files, u.File) {
			files = append(files, u.File)
		}
	}
	return files
}

// printNoHooks is list's text in place of an empty list: where to start,
// or, when a repository's hooks file did not load (unloaded), only that
// nothing loaded — the file may well hold hooks.
func printNoHooks(w io.Writer, label string, unloaded []string) {
	if len(unloaded) > 0 {
		fmt.Fprintln(w, "No shell hooks loaded.")
		return
	}
	fmt.Fprintf(w, "No shell hooks configured in %s.\n", show(label))
	fmt.Fprintln(w, "See `hermes-hooks --help` or docs/config.md (the config reference) for the schema and")
	fmt.Fprintln(w, "worked examples (agent-hooks/config.yaml).")
}

// printUnloaded is list's line for each of unloadedFiles.
func printUnloaded(w io.Writer, files []string) {
	for _, f := range files {
		fmt.Fprintf(w, "  %s %s does not load: its hooks are not listed (hermes-hooks validate says why)\n", CheckFail.Symbol(), show(f))
	}
}

// PrintConfigProblems lists what validate would report about the config
// files themselves: a misspelt key is a problem even when every hook that
// did load is healthy.
func PrintConfigProblems(w io.Writer, problems []Problem) {
	if len(problems) == 0 {
		return
	}
	fmt.Fprintln(w, "Config problems (hermes-hooks validate lists them too):")
	for _, p := range problems {
		where := p.File
		if p.Line > 0 {
			where += ":" + strconv.Itoa(p.Line)
		}
		symbol := CheckFail.Symbol()
		if p.Level == LevelWarning {
			symbol = CheckWarn.Symbol()
		}
		fmt.Fprintf(w, "  %s %s: %s\n", symbol, show(where), show(bounded(p.Message)))
	}
	fmt.Fprintln(w)
}

// PrintLiveDoctor prints `doctor --live`'s report of a running serve.
func PrintLiveDoctor(w io.Writer, r *LiveReport) {
	fmt.Fprintf(w, "Live check of the hermes-hooks serve at %s\n", show(r.Server))
	fmt.Fprintf(w, "  config %s, generation %d, counting since %s\n\n", show(r.Config), r.Generation, show(r.Since))
	for _, c := range r.Checks {
		fmt.Fprintf(w, "  %s %s\n", c.Level.Symbol(), show(c.Text))
	}
	if len(r.Checks) > 0 {
		fmt.Fprintln(w)
	}
	if len(r.Hooks) == 0 {
		fmt.Fprintln(w, "No shell hooks configured or loaded — nothing to check.")
	}
	for _, h := range r.Hooks {
		fmt.Fprintf(w, "  [%s] %s\n", show(h.Event), show(h.Command))
		for _, c := range h.Checks {
			fmt.Fprintf(w, "      %s %s\n", c.Level.Symbol(), show(c.Text))
		}
		fmt.Fprintln(w)
	}
	if r.Problems > 0 {
		fmt.Fprintf(w, "%s found.  Fix before relying on these hooks.\n", Count(r.Problems, "issue", "issues"))
		return
	}
	fmt.Fprintln(w, "All live hooks look healthy.")
}

// PrintTextOnly prints approve's ⚠ for a hook approved by its text only
// (why: the reason; "" prints nothing), or, when refused, why approve will
// not approve a fail_closed guard so without --text-only (scope is the
// hook's, for the approve line: consent.ApproveTextOnlyHintFor).
func PrintTextOnly(w io.Writer, e *hookconfig.Entry, event, command string, scope consent.Scope, why string, refused bool) {
	switch {
	case refused:
		fmt.Fprintf(w, "  ✗ not approved: [%s] %s: ⚠ a fail_closed guard whose files cannot be determined (%s) would be approved by its text only,\n"+
			"    so an edit to what it runs would run unnoticed. Review it, then approve it knowingly:\n      %s\n",
			show(event), show(command), show(why), show(consent.ApproveTextOnlyHintFor(event, command, scope)))
	case why != "" && e != nil && !e.RunsCommand(): // no file: why says what can change
		fmt.Fprintf(w, "    ⚠ approved by its text only (%s)\n", show(why))
	case why != "":
		fmt.Fprintf(w, "    ⚠ approved by its text only (%s): the files it runs cannot be determined,\n"+
			"      so what it does can change without a new approval.\n", show(why))
	}
}

// unchangedText is doctor's line for an approved hook that still is what
// was approved, naming what was compared: a rule or an endpoint has no
// script, and "script unchanged" sent people looking for one.
func unchangedText(e *hookconfig.Entry) string {
	switch {
	case e.Rule() != nil:
		return "rule unchanged since approval (its expression, decision and message)"
	case !e.RunsCommand():
		return "unchanged since approval (its URL and what it sends)"
	}
	return "script unchanged since approval"
}

// textOnlyTail is what follows "approved by its text only (WHY)": tail
// for a command, whose files could not be determined; nothing for an
// entry that runs no file (an http hook, an opa: entry), whose WHY says
// what can change: "the files it runs cannot be determined" of a URL sent
// people looking for files. A nil e is a command.
func textOnlyTail(e *hookconfig.Entry, tail string) string {
	if e != nil && !e.RunsCommand() {
		return ""
	}
	return tail
}

// smokeName and changedName are what doctor skipped for a hook it may not
// run yet, and what changed: a rule has no JSON to smoke-test and no
// script, and "skipped JSON smoke test — the script changed" sent people
// looking for one.
func smokeName(e *hookconfig.Entry) string {
	if e.Rule() != nil {
		return "the rule's evaluation on the synthetic payload"
	}
	return "JSON smoke test"
}

func changedName(e *hookconfig.Entry) string {
	switch {
	case e.Rule() != nil:
		return "the rule"
	case !e.RunsCommand():
		return "it"
	}
	return "the script"
}

// notApprovedFix is what doctor tells a person to do about a hook nobody
// approved. --accept-hooks (like HERMES_ACCEPT_HOOKS and
// hooks_auto_accept) approves only the hooks of one's own config files: a
// repository's are approved for that repository, after the review
// approve --project shows.
func notApprovedFix(e *hookconfig.Entry, hint string) string {
	if !e.Scope.Global() && e.Scope.Bundle == "" {
		return "a repository's hooks: review them, then run " + hint
	}
	return "run with --accept-hooks once, or: " + hint
}

// approveHint is what approves e (again): for a bundle's hook (approved by
// its signature, never by approve) reinstalling the bundle; else the one
// approve line the reports give for e
// (consent.ApproveHint, as dispatch's warnings and refusals do): approve
// --project 'DIR' for a repository's hook, never its text to paste.
func approveHint(e *hookconfig.Entry) string {
	if e.Scope.Bundle != "" {
		return "reinstall its bundle (hermes-hooks bundle install FILE)"
	}
	return consent.ApproveHint(e.DeclaredAs, e.Text(), e.Scope)
}

// ruleDecisionLine is list's line of what a rule decides, after its id
// when it has one: the name the journal, log --hook and exports use, and
// part of what is approved.
func ruleDecisionLine(r *hookconfig.RuleSpec) string {
	id := ""
	if r.ID != "" {
		id = "id: " + show(r.ID) + ", "
	}
	return fmt.Sprintf("%sdecision: %s, message: %s", id, r.Decision, show(PyRepr(r.Message)))
}
