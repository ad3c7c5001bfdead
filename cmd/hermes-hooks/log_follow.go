package main

import (
	"fmt"

	"github.com/hermes-hooks/hermes-hooks/journal"
)

// maxChainWarnings bounds the breaks log -f warns about: a journal a
// process keeps writing junk to must not flood the terminal.
const maxChainWarnings = 10

// boundedWarnings say at most maxChainWarnings warnings of one kind, then
// once that the rest (more) are not said: a journal a process keeps
// writing junk to must not flood the terminal. hold keeps them for flush,
// so that log's warnings follow its output (log -f says each as it comes).
// All come from one goroutine (the scan's, or Follow's).
type boundedWarnings struct {
	a    *app
	more string
	seen int
	hold bool
	held []string
}

// say warns msg, unless the bound is reached.
func (w *boundedWarnings) say(msg string) {
	w.seen++
	switch {
	case w.seen == maxChainWarnings+1:
		msg = w.more
	case w.seen > maxChainWarnings:
		return
	}
	if w.hold {
		w.held = append(w.held, msg)
	} else {
		w.a.Warn(msg)
	}
}

// flush says the warnings held.
func (w *boundedWarnings) flush() {
	for _, m := range w.held {
		w.a.Warn(m)
	}
	w.held = nil
}

// chainWarnings are log -f's warnings of breaks of the journal's chain,
// as log's: from the FollowCheck of each line it reads, and of the end of
// what was there when it started (FollowCheck.CaughtUp: its newest records
// removed). FollowCheck finds each break once.
func chainWarnings(a *app) *boundedWarnings {
	return &boundedWarnings{a: a, more: "more breaks of the journal's chain follow: not warned about; 'hermes-hooks log verify' checks it"}
}

// breakAt warns of a break at l (nil: none).
func (w *boundedWarnings) breakAt(l *journal.Location) {
	if l != nil {
		w.say(chainBroken(l))
	}
}

// unreadWarnings say which records of the journal's chain log could not
// show (JSON with a seq whose other fields are not a record's: a field of
// another type). The chain reads only seq and prev, so neither the chain
// check nor the reading would otherwise mention it: a record gone from
// log's output in silence. (A line that is no record at all is the chain
// check's to name.)
func unreadWarnings(a *app) *boundedWarnings {
	return &boundedWarnings{a: a, more: "more records log cannot read follow: not warned about"}
}

// unreadAt warns that l was not shown, and why.
func (w *boundedWarnings) unreadAt(l journal.Line, err error) {
	w.say(fmt.Sprintf("%s:%d: not shown: no record log can read (%v)", l.File, l.N, err))
}
