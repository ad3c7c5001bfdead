package main

import (
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
