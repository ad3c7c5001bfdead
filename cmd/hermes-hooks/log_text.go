package main

// `hermes-hooks log`'s line per record.

import (
	"fmt"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hermes-hooks/hermes-hooks/internal/textutil"

	"github.com/hermes-hooks/hermes-hooks/journal"
)

// journalLine is one record for people: when, what was decided on which
// event, why, and each hook's part. Everything from configs and hooks is
// terminal-escaped.
func journalLine(e *journal.Entry) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %-5s %s", e.Time.Local().Format("2006-01-02 15:04:05"), showCut(e.Decision), showCut(e.Event))
	if e.Tool != "" {
		fmt.Fprintf(&b, " tool=%s", showWord(e.Tool))
	}
	if e.Session != "" {
		fmt.Fprintf(&b, " session=%s", showWord(e.Session))
	}
	if e.Delivered != "" {
		// What the agent got where it was not the decision: an ask it
		// could not put to a person, refused instead.
		fmt.Fprintf(&b, " delivered as %s", showCut(e.Delivered))
		if e.DeliveredWhy != "" {
			fmt.Fprintf(&b, " (%s)", showCut(e.DeliveredWhy))
		}
	}
	if e.Stop {
		b.WriteString(" stop")
	}
	if e.Cut {
		// Its decision was no answer: the deadline (or a signal) cut its
		// hooks short, and what the caller answered is another record.
		b.WriteString(" cut short: no answer")
	}
	if len(e.Effects) > 0 {
		fmt.Fprintf(&b, " +%s", show(strings.Join(e.Effects, ",")))
	}
	if e.Message != "" {
		fmt.Fprintf(&b, " %q", showCut(e.Message))
	}
	for i, h := range e.Hooks {
		if i == maxHooksShown {
			// A config lists far fewer; a forged record may list any
			// number.
			fmt.Fprintf(&b, " | … %d more hooks", len(e.Hooks)-i)
			break
		}
		fmt.Fprintf(&b, " | %s", hookShown(h.Command, h.Rule))
		switch {
		case !h.Ran && h.Skipped != "":
			fmt.Fprintf(&b, " skipped (%s)", showCut(h.Skipped))
			continue
		case h.Shadow:
			b.WriteString(" shadow")
			if h.Would != "" {
				fmt.Fprintf(&b, " would %q", showCut(h.Would))
			} else if _, answered := journal.ShadowVerdict(&h); answered {
				// It answered and asked for nothing (a rule that is
				// false, an OPA policy's {}): said, not left bare.
				b.WriteString(" would none")
			}
		default:
			fmt.Fprintf(&b, " %s", showCut(h.Decision))
		}
		if h.Rejudged {
			// Its verdict is on the call as another hook rewrote it.
			b.WriteString(" on the rewritten call")
		}
		if h.ExitCode != nil {
			fmt.Fprintf(&b, " exit=%d", *h.ExitCode)
		}
		switch {
		case h.TimedOut && h.Error != "":
			// A rule past its time bound: its error says how it
			// stopped (past its bound, or never started).
			fmt.Fprintf(&b, " timed out (%s)", showCut(h.Error))
		case h.TimedOut:
			b.WriteString(" timed out")
		case h.Error != "":
			// It did not run as configured (a worker given up, a
			// matcher that could not decide, a command that cannot
			// start): say why, as a skipped hook does.
			fmt.Fprintf(&b, " failed (%s)", showCut(h.Error))
		}
		fmt.Fprintf(&b, " %gms", h.ElapsedMS)
	}
	return b.String()
}

// maxRuleShown bounds a rule's text on a log line, in code points: a
// ready-made rule's pattern is a few hundred, and every line of a firing
// repeats each rule that ran. Its id or place (rule) says which it is;
// log --json has the whole text.
const maxRuleShown = 60

// hookShown is a hook's command as a log line shows it: a long rule cut,
// with its id or place; a rule's id (what log --hook selects by) always.
func hookShown(command, rule string) string {
	// Identity is a rule's id, else its file's (absolute) path and line.
	id := rule != "" && !filepath.IsAbs(rule)
	c := command
	if rule != "" && len(command) > maxRuleShown {
		c = textutil.CutRunes(command, maxRuleShown)
	}
	switch {
	case len(c) < len(command):
		return show(c) + "… (" + showCut(rule) + ")"
	case id:
		return showCut(command) + " (" + showCut(rule) + ")"
	}
	return showCut(command)
}

// maxFieldShown bounds each text of a record that log and replay print
// for people (a tool name, a session id, a message, a command), in code
// points: the model chooses a payload's, a hook its message, and one
// record of megabyte strings printed a line of megabytes. log --json
// keeps them whole.
const maxFieldShown = 1000

// maxHooksShown bounds the hooks of one record log lists.
const maxHooksShown = 100

// showCut is show of s cut to maxFieldShown code points, saying how long
// it was.
func showCut(s string) string {
	if len(s) <= maxFieldShown {
		return show(s)
	}
	c := textutil.CutRunes(s, maxFieldShown)
	if len(c) == len(s) {
		return show(s)
	}
	return show(c) + fmt.Sprintf("… (%d bytes)", len(s))
}

// showWord is showCut of a value the line prints after "key=" (a tool
// name, a session id: the host's text, a payload's), quoted as a message
// is unless it is one plain word: the line's own separators (" | ",
// ": ", "→") inside a value made a forged session id read as another
// hook's verdict. Every agent's tool names and session ids are plain.
func showWord(s string) string {
	for _, r := range s {
		if !(r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r) || strings.ContainsRune("-_.:/@+=,#~", r))) {
			return fmt.Sprintf("%q", showCut(s))
		}
	}
	return showCut(s)
}
