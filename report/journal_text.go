package report

// The decision journal for people: `hermes-hooks log`'s lines and
// `hermes-hooks replay`'s differences.

import (
	"fmt"
	"io"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/journal"
)

// JournalLine is one record for people: when, what was decided on which
// event, why, and each hook's part. Everything from configs and hooks is
// terminal-escaped.
func JournalLine(e *journal.Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %-5s %s", e.Time.Local().Format("2006-01-02 15:04:05"), show(e.Decision), show(e.Event))
	if e.Tool != "" {
		fmt.Fprintf(&b, " tool=%s", show(e.Tool))
	}
	if e.Session != "" {
		fmt.Fprintf(&b, " session=%s", show(e.Session))
	}
	if e.Stop {
		b.WriteString(" stop")
	}
	if len(e.Effects) > 0 {
		fmt.Fprintf(&b, " +%s", show(strings.Join(e.Effects, ",")))
	}
	if e.Message != "" {
		fmt.Fprintf(&b, " %q", show(e.Message))
	}
	for _, h := range e.Hooks {
		fmt.Fprintf(&b, " | %s", show(h.Command))
		switch {
		case !h.Ran && h.Skipped != "":
			fmt.Fprintf(&b, " skipped (%s)", show(h.Skipped))
			continue
		case h.Shadow:
			b.WriteString(" shadow")
			if h.Would != "" {
				fmt.Fprintf(&b, " would %q", show(h.Would))
			}
		default:
			fmt.Fprintf(&b, " %s", show(h.Decision))
		}
		if h.ExitCode != nil {
			fmt.Fprintf(&b, " exit=%d", *h.ExitCode)
		}
		if h.TimedOut {
			b.WriteString(" timed out")
		}
		if h.Error != "" {
			// It did not run as configured (a worker given up, a
			// matcher that could not decide, a command that cannot
			// start): say why, as a skipped hook does.
			fmt.Fprintf(&b, " failed (%s)", show(h.Error))
		}
		fmt.Fprintf(&b, " %gms", h.ElapsedMS)
	}
	return b.String()
}

// PrintReplay is replay's report: the counts, then a line per difference;
// noPayload counts the selected records that hold no payload.
func PrintReplay(w io.Writer, rep *journal.ReplayReport, noPayload int) {
	fmt.Fprintf(w, "%d events, %d decisions differ (%d not replayable)\n", rep.Events, rep.Differ, rep.NotReplayable)
	for i := range rep.Differences {
		fmt.Fprintln(w, DifferenceLine(&rep.Differences[i]))
	}
	if rep.Replayed > 0 && noPayload > 0 {
		fmt.Fprintf(w, "note: %d of the records hold no payload and were not replayed: only records written with journal: {include_payload: true} can be\n", noPayload)
	}
}

// DifferenceLine is one difference for people, everything from configs,
// hooks and payloads terminal-escaped:
//
//	2025-01-31 12:00:00 #7 pre_tool_call tool=terminal: none → block | now: ./guard.sh "no force push" | recorded: -
func DifferenceLine(d *journal.Difference) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s #%d %s", d.Time.Local().Format("2006-01-02 15:04:05"), d.Seq, show(d.Event))
	if d.Tool != "" {
		fmt.Fprintf(&b, " tool=%s", show(d.Tool))
	}
	if d.Session != "" {
		fmt.Fprintf(&b, " session=%s", show(d.Session))
	}
	fmt.Fprintf(&b, ": %s → %s | now: %s | recorded: %s", show(d.Recorded.Decision), show(d.Now.Decision), side(&d.Now), side(&d.Recorded))
	return b.String()
}

// side names the hooks that decided and their message; "-" when none did.
func side(s *journal.Side) string {
	if len(s.Hooks) == 0 {
		return "-"
	}
	out := show(strings.Join(s.Hooks, ", "))
	if s.Message != "" {
		out += fmt.Sprintf(" %q", show(s.Message))
	}
	return out
}
