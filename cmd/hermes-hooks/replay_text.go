package main

// `hermes-hooks replay`'s report: the counts and a line per difference.

import (
	"fmt"
	"io"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/journal"
	"github.com/hermes-hooks/hermes-hooks/report"
)

// printReplay is replay's report: the counts, then a line per difference;
// noPayload counts the selected records that hold no payload, omitted
// those of them written with include_payload whose payload was too large
// to keep.
func printReplay(w io.Writer, rep *journal.ReplayReport, noPayload, omitted int) {
	fmt.Fprintf(w, "%s, %s (%d not replayable)\n", report.Count(rep.Events, "event", "events"),
		report.Count(rep.Differ, "decision differs", "decisions differ"), rep.NotReplayable)
	for i := range rep.Differences {
		fmt.Fprintln(w, differenceLine(&rep.Differences[i]))
	}
	if rep.Failed > 0 {
		fmt.Fprintf(w, "note: a hook failed on %s (the first: %s); a failed hook decides nothing unless fail_closed, so those events did not test it ('hermes-hooks validate' checks a config's rules)\n",
			report.Count(rep.Failed, "replayed event", "replayed events"), showCut(rep.FirstFailure))
	}
	if rep.Replayed > 0 && (rep.ShadowEntries > 0 || rep.ShadowWould > 0) {
		fmt.Fprintln(w, shadowNote(rep))
	}
	if rep.OtherProject > 0 {
		fmt.Fprintf(w, "note: %s decided in another project (%s), whose .hermes/hooks.yaml this replay did not load (it loads the working directory's): run replay there\n",
			report.Count(rep.OtherProject, "of the replayed records was", "of the replayed records were"), showCut(rep.FirstOtherProject))
	}
	if rep.Elsewhere > 0 {
		fmt.Fprintf(w, "note: %d of the records were decided outside this directory and were not replayed: replay fires a record only where it was decided; run it there (or pass --any-cwd)\n", rep.Elsewhere)
	}
	if rep.Replayed > 0 && rep.Unreadable > 0 {
		fmt.Fprintf(w, "note: %d of the records cannot be read as records and were not replayed: 'hermes-hooks log' names their lines\n", rep.Unreadable)
	}
	if rep.Replayed > 0 && noPayload > omitted {
		fmt.Fprintf(w, "note: %d of the records hold no payload and were not replayed: only records written with journal: {include_payload: true} can be\n", noPayload-omitted)
	}
	if rep.Replayed > 0 && omitted > 0 {
		fmt.Fprintf(w, "note: %d of the records were written with include_payload, but their payload was too large to keep (\"payload_omitted\"), and were not replayed\n", omitted)
	}
}

// differenceLine is one difference for people, everything from configs,
// hooks and payloads terminal-escaped:
//
//	2025-01-31 12:00:00 #7 pre_tool_call tool=terminal: none → block | now: ./guard.sh "no force push" | recorded: -
func differenceLine(d *journal.Difference) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s #%d %s", d.Time.Local().Format("2006-01-02 15:04:05"), d.Seq, showCut(d.Event))
	if d.Tool != "" {
		fmt.Fprintf(&b, " tool=%s", showWord(d.Tool))
	}
	if d.Session != "" {
		fmt.Fprintf(&b, " session=%s", showWord(d.Session))
	}
	if d.Agent != "" {
		fmt.Fprintf(&b, " agent=%s", showWord(d.Agent))
	}
	fmt.Fprintf(&b, ": %s → %s | now: %s | recorded: %s", sideDecision(&d.Recorded), sideDecision(&d.Now), replaySide(&d.Now), replaySide(&d.Recorded))
	return b.String()
}

// sideDecision is a side's decision, and what the agent got where that
// differs ("ask (delivered as block)": an ask the agent cannot put).
func sideDecision(s *journal.Side) string {
	if s.Delivered == "" {
		return showCut(s.Decision)
	}
	return showCut(s.Decision) + " (delivered as " + showCut(s.Delivered) + ")"
}

// replaySide names the hooks that decided and their message; "-" when none did.
// A rule is named as log names it: its text (the start of a long one) and
// its id, or a long one without an id its place.
func replaySide(s *journal.Side) string {
	if len(s.Hooks) == 0 {
		return "-" + shadowWould(s)
	}
	names := make([]string, len(s.Hooks))
	for i, name := range s.Hooks {
		names[i] = showCut(name)
		switch {
		case i < len(s.Commands) && s.Commands[i] != name:
			names[i] = hookShown(s.Commands[i], name)
		case i < len(s.Rules) && s.Rules[i] != "":
			// A rule without an id, named by its text: cut, with its
			// place, as log shows it (hookShown cannot tell a relative
			// place from an id; hookName could).
			if c := textutil.CutRunes(name, maxRuleShown); len(c) < len(name) {
				names[i] = show(c) + "… (" + showCut(s.Rules[i]) + ")"
			}
		}
	}
	out := strings.Join(names, ", ")
	if s.Message != "" {
		out += fmt.Sprintf(" %q", showCut(s.Message))
	}
	return out + shadowWould(s)
}

// shadowWould is what the side's hooks in mode: shadow would have decided
// (" (shadow: team/x would block: …)"), "" when none would have.
func shadowWould(s *journal.Side) string {
	if len(s.ShadowHooks) == 0 {
		return ""
	}
	parts := make([]string, len(s.ShadowHooks))
	for i, name := range s.ShadowHooks {
		if c := textutil.CutRunes(name, maxRuleShown); len(c) < len(name) {
			name = c + "…"
		}
		parts[i] = show(name) + " would " + showCut(s.ShadowWould[i])
	}
	return " (shadow: " + strings.Join(parts, "; ") + ")"
}

// shadowNote says that the config's entries in mode: shadow decided
// nothing in the replay, and on how many replayed events one would have.
func shadowNote(rep *journal.ReplayReport) string {
	n := max(rep.ShadowEntries, 1)
	msg := "note: " + report.Count(n, "entry of the config replayed is in mode: shadow and decides",
		"entries of the config replayed are in mode: shadow and decide") + " nothing here"
	if rep.ShadowWould == 0 {
		return msg + "; none would have decided on a replayed event"
	}
	who := "they"
	if n == 1 {
		who = "it"
	}
	return msg + fmt.Sprintf("; %s would have decided on %s (%s): replay a copy without mode: shadow (--config) to see those as differences",
		who, report.Count(rep.ShadowWould, "replayed event", "replayed events"), showCut(rep.FirstShadowWould))
}
