package main

// `hermes-hooks log`'s line per record.

import (
	"fmt"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/journal"
)

// journalLine is one record for people: when, what was decided on which
// event, why, and each hook's part. Everything from configs and hooks is
// terminal-escaped.
func journalLine(e *journal.Entry) string {
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
