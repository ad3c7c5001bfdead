package main

import (
	"fmt"

	"github.com/hermes-hooks/hermes-hooks/journal"
)

// maxChainWarnings bounds the breaks log -f warns about: a journal a
// process keeps writing junk to must not flood the terminal.
const maxChainWarnings = 10

// chainWarnings are log -f's warnings of breaks of the journal's chain,
// as log's: from the FollowCheck of each line it reads, and of the end of
// what was there when it started (FollowCheck.CaughtUp: its newest records
// removed). FollowCheck finds each break once; all come from Follow's
// goroutine.
type chainWarnings struct {
	a    *app
	seen int
}

// at warns of a break at l (nil: none), unless the bound is reached (then
// once, that the rest are not said).
func (w *chainWarnings) at(l *journal.Location) {
	if l == nil {
		return
	}
	w.seen++
	switch {
	case w.seen <= maxChainWarnings:
		w.a.Warn(chainBroken(l))
	case w.seen == maxChainWarnings+1:
		w.a.Warn("more breaks of the journal's chain follow: not warned about; 'hermes-hooks log verify' checks it")
	}
}

// unreadWarnings say which records of the journal's chain log could not
// show (JSON with a seq whose other fields are not a record's: a field of
// another type). The chain reads only seq and prev, so neither the chain
// check nor the reading would otherwise mention it: a record gone from
// log's output in silence. (A line that is no record at all is the chain
// check's to name.)
// Bounded as chainWarnings are. held: kept for flush, so that log's
// warnings follow its output (log -f says each as it comes).
type unreadWarnings struct {
	a    *app
	seen int
	hold bool
	held []string
}

// at warns that l was not shown, and why.
func (w *unreadWarnings) at(l journal.Line, err error) {
	w.seen++
	var msg string
	switch {
	case w.seen <= maxChainWarnings:
		msg = fmt.Sprintf("%s:%d: not shown: no record log can read (%v)", l.File, l.N, err)
	case w.seen == maxChainWarnings+1:
		msg = "more records log cannot read follow: not warned about"
	default:
		return
	}
	if w.hold {
		w.held = append(w.held, msg)
	} else {
		w.a.Warn(msg)
	}
}

// flush says the warnings held.
func (w *unreadWarnings) flush() {
	for _, m := range w.held {
		w.a.Warn(m)
	}
	w.held = nil
}
