package main

import (
	"sync"

	"github.com/hermes-hooks/hermes-hooks/journal"
)

// maxChainWarnings bounds the breaks log -f warns about: a journal a
// process keeps writing junk to must not flood the terminal.
const maxChainWarnings = 10

// chainWarnings are log -f's warnings of breaks of the journal's chain,
// as log's: from Verify over what is there when it starts (for what only
// the journal's end can tell: its newest records removed), and from the
// FollowCheck of each line it reads. The two find the same break at the
// same place, in either order: each is said once.
type chainWarnings struct {
	a       *app
	mu      sync.Mutex
	said    map[string]bool
	stopped bool
}

// followChainWarnings starts Verify over the journal at path beside the
// reading, and returns what warns of the breaks found.
func followChainWarnings(a *app, path string) *chainWarnings {
	w := &chainWarnings{a: a, said: map[string]bool{}}
	go func() {
		if res, err := journal.Verify(path); err == nil {
			w.at(res.Bad)
		}
	}()
	return w
}

// at warns of a break at l (nil: none), unless it was said already or the
// bound is reached (then once, that the rest are not said).
func (w *chainWarnings) at(l *journal.Location) {
	if l == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	key := l.String()
	if w.stopped || w.said[key] || len(w.said) > maxChainWarnings {
		return
	}
	w.said[key] = true
	if len(w.said) > maxChainWarnings {
		w.a.Warn("more breaks of the journal's chain follow: not warned about; 'hermes-hooks log verify' checks it")
		return
	}
	w.a.Warn(chainBroken(l))
}

// stop ends the warnings: Verify may still be reading when log -f ends.
func (w *chainWarnings) stop() {
	w.mu.Lock()
	w.stopped = true
	w.mu.Unlock()
}
