package cli

import (
	"os"
	"runtime/debug"
)

// One-shot collector settings. A `hook` or `dispatch` process answers one
// event and exits: with Go's default (a collection each time the heap
// doubles from 4 MB) one with the five ready-made rule files spent ~15 %
// of its CPU collecting garbage it was about to drop with the whole
// process. It collects at five times the live heap instead, and below a
// soft limit of oneShotMemLimit, so that a firing whose live heap grows
// large (a bounded analysis of a hostile line) is collected as before
// rather than held five times over. serve, which lives on, keeps the
// default. A GOGC or GOMEMLIMIT the user set wins.
const (
	oneShotGCPercent = 400
	oneShotMemLimit  = 256 << 20
)

// OneShotGC sets the collector for a process that answers one event.
func OneShotGC() {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetGCPercent(oneShotGCPercent)
	debug.SetMemoryLimit(oneShotMemLimit)
}
