package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/pyjson"
	"github.com/hermes-hooks/hermes-hooks/protocol"
	"github.com/hermes-hooks/hermes-hooks/report"
)

// The verdict `hermes-hooks test` ends with, after Hermes' own lines: a
// status line per hook, the folded outcome and the payload sent. Hermes
// prints each run and leaves the reader to add them up; a first-time user
// wants the answer ("does my guard block this?") in one place.

// Run states, as --json's "status" names them.
const (
	statusRan           = "ran"
	statusFailedToStart = "failed_to_start"
	statusTimedOut      = "timed_out"
)

// status is the run's state and whether it counts as a failure (exit 1).
// A non-zero exit is the hook's own answer, not a failure of the hook.
func (r *testRun) status() (string, bool) {
	switch rep := &r.Report; {
	case rep.TimedOut:
		return statusTimedOut, true
	case rep.Error != "" || rep.Skipped != "":
		return statusFailedToStart, true
	}
	return statusRan, false
}

// failed counts the runs that could not start or timed out.
func failed(runs []testRun) int {
	n := 0
	for i := range runs {
		if _, bad := runs[i].status(); bad {
			n++
		}
	}
	return n
}

// foldReports are the reports the verdict folds. A shadow hook's reply is
// shown in its run above, but dispatch folds nothing of it (it is recorded
// as what it would have done), so neither does the verdict.
func foldReports(runs []testRun) []protocol.HookReport {
	out := make([]protocol.HookReport, len(runs))
	for i := range runs {
		out[i] = runs[i].Report
		if out[i].Shadow {
			out[i].Contribution = nil
		}
	}
	return out
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

func printVerdict(w io.Writer, runs []testRun, o *protocol.Outcome) {
	if len(runs) == 0 {
		return
	}
	counts := map[string]int{}
	skipped := 0
	for i := range runs {
		s, _ := runs[i].status()
		counts[s]++
		if !runs[i].approved || runs[i].changed {
			skipped++
		}
	}
	var parts []string
	for _, c := range []struct{ status, words string }{
		{statusRan, "ran"}, {statusFailedToStart, "failed to start"}, {statusTimedOut, "timed out"},
	} {
		if n := counts[c.status]; n > 0 {
			parts = append(parts, strconv.Itoa(n)+" "+c.words)
		}
	}
	fmt.Fprintf(w, "Verdict for %s: %s\n", plural(len(runs), "hook"), strings.Join(parts, ", "))
	for i := range runs {
		fmt.Fprintf(w, "  %s\n", statusLine(&runs[i]))
	}
	report.PrintOutcome(w, o)
	if skipped > 0 {
		fmt.Fprintf(w, "  note: dispatch skips %s (not allowlisted, or changed since approval): today's dispatch outcome leaves out their part\n",
			plural(skipped, "hook"))
	}
	printPayloads(w, runs)
}

// statusLine is one hook's line of the verdict: ✓ when it ran, ✗ when it
// could not start or timed out; its decision, then how it went.
//
//	✓ ./guard.sh: block — ran, exit=0
//	✗ ./crlf.sh: none — failed to start: …/crlf.sh: CRLF line endings: …
func statusLine(r *testRun) string {
	rep := &r.Report
	dec := protocol.DecisionNone
	if c := rep.Contribution; c != nil && c.Decision != "" {
		dec = c.Decision
	}
	mark := "✓"
	if _, bad := r.status(); bad {
		mark = "✗"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: %s", mark, show(rep.Command), dec)
	if rep.Shadow {
		b.WriteString(" (shadow: dispatch only records it)")
	}
	switch {
	case !r.approved:
		b.WriteString(" (not allowlisted: dispatch skips it)")
	case r.changed:
		b.WriteString(" (changed since approval: dispatch skips it)")
	}
	b.WriteString(" — ")
	switch s, _ := r.status(); s {
	case statusTimedOut:
		fmt.Fprintf(&b, "timed out after %ss", pyjson.Seconds(rep.ElapsedMS/1000))
	case statusFailedToStart:
		why := rep.Error
		if why == "" {
			why = rep.Skipped
		}
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
func printPayloads(w io.Writer, runs []testRun) {
	var order []string
	who := map[string][]string{}
	for i := range runs {
		p := string(runs[i].Payload)
		if _, seen := who[p]; !seen {
			order = append(order, p)
		}
		who[p] = append(who[p], runs[i].Report.Command)
	}
	for _, p := range order {
		label := "Payload sent"
		if len(order) > 1 {
			label += " to " + strings.Join(who[p], ", ")
		}
		text := strings.TrimRight(p, "\n") // a Claude payload ends its line
		if len(text) > maxPayloadShown {
			text = protocol.Truncate(text, maxPayloadShown) + " … (" + strconv.Itoa(len(p)) + " bytes; --json shows it whole)"
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
