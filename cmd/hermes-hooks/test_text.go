package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/protocol"
	"github.com/hermes-hooks/hermes-hooks/report"
)

// `hermes-hooks test`'s text: each run as Hermes' `hooks test` prints it,
// the hooks not fired and why (test_filtered.go), and the verdict.
//
// The verdict `hermes-hooks test` ends with, after Hermes' own lines: a
// status line per hook, the folded outcome and the payload sent. Hermes
// prints each run and leaves the reader to add them up; a first-time user
// wants the answer ("does my guard block this?") in one place.

// trialRun is one hook's run by `hermes-hooks test`: what RunEntry
// returned, the entry, and its consent state (dispatch would skip a hook
// not approved, or changed since approval).
type trialRun struct {
	dispatcher.HookRun
	Entry    *hookconfig.Entry
	Approved bool
	Changed  bool // approved, but the script changed since: dispatch skips it
	// Held: a repository's hook not approved (or changed since), shown
	// but not run (no --run-unapproved).
	Held bool
	// Unapproved: what a repository's http or opa: entry run by
	// --run-unapproved is (its TextOnly: a server, and the variables its
	// headers send), said beside its run.
	Unapproved string
	// Missing is the script it runs that is not there, if any: said
	// beside Hermes' bare "command not found".
	Missing string
}

// refuses reports whether dispatch refuses what the hook guards rather
// than skip it (dispatcher.ConsentGate): a fail_closed guard on an event it
// can refuse, changed since approval, or one of the user's own config that
// nobody approved.
func (r *trialRun) refuses() bool {
	e := r.Entry
	if e == nil || !e.FailClosed || !e.Event.FailsClosed() {
		return false
	}
	return r.Changed || !r.Approved && e.Scope.Global()
}

// replyProblem is why the run's reply guards nothing (another event's
// form, another dialect's words: hookconfig.Entry.ReplyProblem), "" when
// it does or the run is no entry's.
func replyProblem(r *trialRun) string {
	if r.Entry == nil {
		return ""
	}
	exit := 0
	if r.Report.ExitCode != nil {
		exit = *r.Report.ExitCode
	}
	return r.Entry.ReplyProblem(r.Stdout, exit)
}

// Run states, as --json's "status" names them.
const (
	statusRan           = "ran"
	statusFailedToStart = "failed_to_start"
	// ruleErred is a rule's failed_to_start in the text verdict: its
	// evaluation erred (--json keeps Hermes' status).
	ruleErred      = "rule_erred"
	statusTimedOut = "timed_out"
	// statusNotRun: a repository's hook test did not run (trialRun.Held).
	statusNotRun = "not_run"
	// statusNotStarted: a hook dispatch would not start (a hook of an
	// earlier tier, or earlier in the chain, blocked), so test did not
	// either (dispatcher.HookRun.NotStarted).
	statusNotStarted = "not_started"
)

// Status is the run's state and whether it counts as a failure (exit 1).
// A non-zero exit is the hook's own answer, not a failure of the hook.
func (r *trialRun) Status() (string, bool) {
	switch rep := &r.Report; {
	case r.Held:
		return statusNotRun, false
	case r.NotStarted:
		return statusNotStarted, false
	case rep.TimedOut:
		return statusTimedOut, true
	case rep.Error != "" || rep.Skipped != "":
		return statusFailedToStart, true
	}
	return statusRan, false
}

// textStatus is the run's state as the text verdict names it: a rule that
// failed is one whose evaluation erred (it starts nothing).
func (r *trialRun) textStatus() string {
	s, _ := r.Status()
	if s == statusFailedToStart && r.Entry.Rule() != nil {
		return ruleErred
	}
	return s
}

// failedRuns counts the runs that could not start or timed out.
func failedRuns(runs []trialRun) int {
	n := 0
	for i := range runs {
		if _, bad := runs[i].Status(); bad {
			n++
		}
	}
	return n
}

// foldTrial returns the reports the verdict folds. A shadow hook's reply is
// shown in its run above, but dispatch folds nothing of it (it is recorded
// as what it would have done), so neither does the verdict: its report in
// the outcome says what it would have done ("would"), as dispatch's does.
func foldTrial(runs []trialRun) []protocol.HookReport {
	out := make([]protocol.HookReport, len(runs))
	for i := range runs {
		out[i] = runs[i].Report
		if out[i].Shadow {
			out[i].Shadowed()
		}
	}
	return out
}

// printVerdict prints the verdict: a status line per hook, the folded
// outcome and the payloads sent.
func printVerdict(w io.Writer, runs []trialRun, o *protocol.Outcome) {
	if len(runs) == 0 {
		return
	}
	counts := map[string]int{}
	skipped, refused := 0, 0
	for i := range runs {
		counts[runs[i].textStatus()]++
		switch {
		case runs[i].refuses():
			refused++
		case !runs[i].Approved || runs[i].Changed:
			skipped++
		}
	}
	var parts []string
	for _, c := range []struct{ status, words string }{
		{statusRan, "ran"}, {statusFailedToStart, "failed to start"}, {ruleErred, "erred (rules)"}, {statusTimedOut, "timed out"},
		{statusNotRun, "not run (a repository's, not approved)"},
		{statusNotStarted, "not started (dispatch would not start it)"},
	} {
		if n := counts[c.status]; n > 0 {
			parts = append(parts, strconv.Itoa(n)+" "+c.words)
		}
	}
	fmt.Fprintf(w, "Verdict for %s: %s\n", report.Count(len(runs), "hook", "hooks"), strings.Join(parts, ", "))
	for i := range runs {
		fmt.Fprintf(w, "  %s\n", statusLine(&runs[i]))
	}
	printOutcome(w, o)
	if skipped > 0 {
		fmt.Fprintf(w, "  note: dispatch skips %s (not allowlisted, or changed since approval): today's dispatch outcome leaves out their part\n",
			report.Count(skipped, "hook", "hooks"))
	}
	if refused > 0 {
		fmt.Fprintf(w, "  note: dispatch refuses every call %s (fail_closed, not approved or changed since approval) until approved\n",
			map[bool]string{true: "this guard matches", false: "these " + report.Count(refused, "guard", "guards") + " match"}[refused == 1])
	}
	printPayloads(w, runs)
}

// printOutcome prints the folded outcome: its decision, then each part it
// carries.
func printOutcome(w io.Writer, o *protocol.Outcome) {
	dec := o.Decision
	if dec == "" {
		dec = protocol.DecisionNone
	}
	fmt.Fprintf(w, "Outcome: decision %s\n", dec)
	line := func(label, value string) {
		if value != "" {
			fmt.Fprintf(w, "  %s: %s\n", label, show(textutil.Truncate(value, 400)))
		}
	}
	line("message", o.Message)
	line("context", o.Context)
	if o.Args != nil {
		line("args rewritten to", string(pyjson.Encode(o.Args, pyjson.Compact)))
	}
	if o.Stop {
		line("stop", "yes")
		line("stop reason", o.StopReason)
	}
	line("system message", o.SystemMessage)
	if o.Result != nil {
		line("result", strconv.Quote(*o.Result))
	}
	line("inject system", o.InjectSystem)
	line("inject user", o.InjectUser)
	if len(o.Metadata) > 0 {
		line("metadata", string(pyjson.Encode(o.Metadata, pyjson.Compact)))
	}
	if len(o.Env) > 0 {
		env := make(map[string]any, len(o.Env))
		for k, v := range o.Env {
			env[k] = v
		}
		line("env", string(pyjson.Encode(env, pyjson.Compact)))
	}
}

// statusLine is one hook's line of the verdict: ✓ when it ran, ✗ when it
// could not start or timed out, · when test did not run it; its decision,
// then how it went.
//
//	✓ ./guard.sh: block — ran, exit=0
//	✗ ./crlf.sh: none — failed to start: …/crlf.sh: CRLF line endings: …
func statusLine(r *trialRun) string {
	rep := &r.Report
	dec := protocol.DecisionNone
	if c := rep.Contribution; c != nil && c.Decision != "" {
		dec = c.Decision
	}
	mark := "✓"
	if s, bad := r.Status(); bad {
		mark = "✗"
	} else if s == statusNotRun || s == statusNotStarted {
		mark = "·" // nothing ran to succeed
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s", mark, show(rep.Command), dec)
	if rep.Shadow {
		b.WriteString(" (shadow: dispatch only records it)")
	}
	if rep.Rejudged {
		// Its verdict is on the call as another hook rewrote it.
		b.WriteString(" (on the rewritten call)")
	}
	if p := replyProblem(r); strings.Contains(p, "tool-call form") {
		b.WriteString(" (⚠ its reply is another event's form: it drops nothing)")
	} else if p != "" {
		// Another dialect's refusal (a Claude Code reply under a Hermes
		// event): dispatch reads nothing in it, or refuses a fail_closed
		// guard for it.
		b.WriteString(" (⚠ its reply refuses in words its dialect does not read)")
	}
	switch {
	case r.refuses() && !r.Approved:
		b.WriteString(" (not allowlisted: dispatch refuses what it guards)")
	case r.refuses():
		b.WriteString(" (changed since approval: dispatch refuses what it guards)")
	case !r.Approved:
		b.WriteString(" (not allowlisted: dispatch skips it)")
	case r.Changed:
		b.WriteString(" (changed since approval: dispatch skips it)")
	}
	b.WriteString(" — ")
	why := rep.Error
	if why == "" {
		why = rep.Skipped
	}
	switch r.textStatus() {
	case statusNotRun:
		b.WriteString("not run (--run-unapproved runs it)")
	case statusNotStarted:
		b.WriteString(show(rep.Skipped))
	case statusTimedOut:
		fmt.Fprintf(&b, "timed out after %ss", pyjson.Seconds(rep.ElapsedMS/1000))
	case ruleErred:
		fmt.Fprintf(&b, "erred: %s", show(why))
	case statusFailedToStart:
		fmt.Fprintf(&b, "failed to start: %s", show(why))
	default:
		b.WriteString("ran")
		if rep.ExitCode != nil {
			fmt.Fprintf(&b, ", exit=%d", *rep.ExitCode)
		}
	}
	return b.String()
}

// maxPayloadShown bounds a payload printed as text; --json holds it whole.
const maxPayloadShown = 4000

// printPayloads prints the payload the hooks were sent: once when every
// hook got the same bytes, else once per group of hooks (dialects differ:
// a Claude hook gets Claude's payload).
func printPayloads(w io.Writer, runs []trialRun) {
	var order []string
	who := map[string][]string{}
	sent := map[string]bool{} // a hook that did not run was sent nothing
	for i := range runs {
		p := string(runs[i].Payload)
		if _, seen := who[p]; !seen {
			order = append(order, p)
		}
		who[p] = append(who[p], runs[i].Report.Command)
		sent[p] = sent[p] || !runs[i].Held && !runs[i].NotStarted
	}
	for _, p := range order {
		label := "Payload sent"
		if !sent[p] {
			label = "Payload (not sent)"
		}
		if len(order) > 1 {
			label += " to " + strings.Join(who[p], ", ")
		}
		text := strings.TrimRight(p, "\n") // a Claude payload ends its line
		if len(text) > maxPayloadShown {
			text = textutil.Truncate(text, maxPayloadShown) + " … (" + strconv.Itoa(len(p)) + " bytes; --json shows it whole)"
		}
		fmt.Fprintf(w, "%s: %s\n", show(label), show(text))
	}
}

// rawJSON is a payload for --json: the JSON it is, or its text should it
// not be JSON (an encoder error would lose the whole report).
func rawJSON(b []byte) any {
	if json.Valid(b) {
		return json.RawMessage(b)
	}
	return string(b)
}

// printTrial prints each run as Hermes' `hooks test` does: the command,
// its consent state, exit and time, its output and what was parsed of it.
func printTrial(w io.Writer, ev *protocol.Event, event, forTool string, runs []trialRun) {
	if len(runs) == 0 {
		fmt.Fprintf(w, "No shell hooks configured for event: %s\n", show(event))
		if forTool != "" {
			fmt.Fprintf(w, "(with matcher filter --for-tool=%s)\n", show(forTool))
		}
		return
	}
	fmt.Fprintf(w, "Firing %s for event '%s':\n\n", report.Count(len(runs), "hook", "hooks"), show(event))
	for _, r := range runs {
		rep := r.Report
		fmt.Fprintf(w, "  → %s\n", show(rep.Command))
		if rep.Dialect != protocol.Hermes {
			fmt.Fprintf(w, "      (%s dialect, declared under %s)\n", rep.Dialect, show(rep.Event))
		}
		verb := "skips this hook"
		if r.refuses() {
			verb = "refuses every call this guard matches"
		}
		switch {
		case !r.Approved:
			fmt.Fprintf(w, "      ⚠ not allowlisted: dispatch "+verb+" until you run %s\n",
				show(consent.ApproveHint(r.Entry.DeclaredAs, r.Entry.Text(), r.Entry.Scope)))
		case r.Changed:
			fmt.Fprintf(w, "      ⚠ script changed since approval: dispatch "+verb+" until you run %s\n",
				show(consent.ApproveHint(r.Entry.DeclaredAs, r.Entry.Text(), r.Entry.Scope)))
		}
		if r.Unapproved != "" {
			fmt.Fprintf(w, "      run with --run-unapproved: %s\n", show(r.Unapproved))
		}
		if r.Held {
			fmt.Fprintf(w, "      not run: a repository's hook runs only once you approve it; read it, then run it here with --run-unapproved\n\n")
			continue
		}
		if r.NotStarted {
			fmt.Fprintf(w, "      %s (dispatch would not start it)\n\n", show(rep.Skipped))
			continue
		}
		elapsed := pyjson.Seconds(rep.ElapsedMS / 1000)
		isRule := r.Entry != nil && r.Entry.Rule() != nil
		switch {
		case rep.Error != "" && r.Missing != "":
			fmt.Fprintf(w, "      ✗ error: %s: no file at %s\n", show(rep.Error), show(r.Missing))
		case rep.Error != "":
			fmt.Fprintf(w, "      ✗ error: %s\n", show(rep.Error))
		case rep.TimedOut:
			fmt.Fprintf(w, "      ✗ timed out after %ss\n", elapsed)
		case isRule:
			// No process: an exit code of "?" said the rule had one.
			fmt.Fprintf(w, "      a rule, decided in-process (no process)  elapsed=%.3fms\n", rep.ElapsedMS)
		case r.Answer != nil:
			// An opa: entry: no process either, and OPA's answer is what
			// decided (an undefined one, {}, is what a misspelt path gets).
			fmt.Fprintf(w, "      an OPA query (no process)  elapsed=%ss\n", elapsed)
			fmt.Fprintf(w, "      OPA answered: %s\n", show(textutil.Truncate(strings.TrimSpace(string(r.Answer)), 400)))
			if r.Undefined() {
				fmt.Fprintf(w, "      note: undefined, so no objection; OPA answers so also at a path where no policy is (a misspelt package or rule, a bundle not active yet), where this entry never objects; a package that exists answers {\"result\": {}}\n")
			}
		default:
			code := "?"
			if rep.ExitCode != nil {
				code = fmt.Sprint(*rep.ExitCode)
			}
			fmt.Fprintf(w, "      exit=%s  elapsed=%ss\n", code, elapsed)
			if s := strings.TrimSpace(string(r.Stdout)); s != "" {
				fmt.Fprintf(w, "      stdout: %s\n", show(textutil.Truncate(s, 400)))
			}
			if s := strings.TrimSpace(string(r.Stderr)); s != "" {
				fmt.Fprintf(w, "      stderr: %s\n", show(textutil.Truncate(s, 400)))
			}
		}
		// A guard written in another event's form guards nothing, and
		// dispatch says so only in its report's note: a ⚠ here.
		p := replyProblem(&r)
		if rep.Note != "" && rep.Note != p {
			fmt.Fprintf(w, "      note: %s\n", show(rep.Note))
		}
		if p != "" && r.Entry.FailClosed {
			// A fail_closed guard (p is "" where its exit 2 refused):
			// dispatch refuses for it, saying why.
			fmt.Fprintf(w, "      ⚠ unreadable, so fail_closed refuses: %s\n", show(p))
		} else if p != "" {
			fmt.Fprintf(w, "      ⚠ guards nothing: %s\n", show(p))
		}
		c := rep.Contribution
		read := "parsed" // a rule has no reply to parse: it decided
		if isRule {
			read = "decided"
		}
		if wire, ok := c.HermesWire(ev); ok && c.Decision != protocol.DecisionAllow {
			fmt.Fprintf(w, "      %s (Hermes wire shape): %s\n", read, pyjson.Encode(wire, pyjson.PythonASCII))
		} else if !c.IsEmpty() {
			b, _ := c.MarshalJSON()
			fmt.Fprintf(w, "      %s (contribution): %s\n", read, show(string(b)))
		} else {
			fmt.Fprintf(w, "      %s: <none — hook contributed nothing to the dispatcher>\n", read)
		}
		fmt.Fprintln(w)
	}
}

// trialJSON is `hermes-hooks test --json`'s report: the event, the fields,
// each run with its status and payload, and the folded outcome.
func trialJSON(ev *protocol.Event, fields map[string]any, runs []trialRun, outcome *protocol.Outcome) map[string]any {
	out := make([]map[string]any, 0, len(runs))
	for _, r := range runs {
		status, _ := r.Status()
		out = append(out, map[string]any{
			"report":   r.Report,
			"status":   status,
			"approved": r.Approved,
			"changed":  r.Changed,
			"stdout":   string(r.Stdout),
			"stderr":   string(r.Stderr),
			"payload":  rawJSON(r.Payload),
		})
		if r.Answer != nil {
			out[len(out)-1]["answer"] = string(r.Answer) // an opa: entry's OPA answer
		}
	}
	return map[string]any{
		"event":   ev.Name,
		"fields":  fields,
		"runs":    out,
		"outcome": outcome,
	}
}
