package dispatcher

import (
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// A config source that cannot be loaded must not switch a guard off
// silently. The user's own config failing fails hookconfig.Load (the caller refuses
// the events a failing fail_closed guard blocks — tool calls, gateway messages: see
// hookconfig.RefusalFor); a repository's hooks file, or a file it names, is skipped
// with a warning so that the global hooks keep working, and is remembered in
// hookconfig.Config.Unloaded: Dispatch refuses such an event while it may have held a guard.

// ScopedGate is a Gate that can also tell whether any hook of a project
// could run (consent.Policy.MayRunIn): when none could, a project hooks
// file that cannot be loaded held no working guard, and the event is not
// refused for it. A Gate without it is taken to run everything.
type ScopedGate interface {
	Gate
	MayRunIn(project string) bool
}

// unloadedRefusal is the refusal of ev, an event a failing fail_closed
// guard blocks, while a project source that may hold a guard cannot be
// loaded ("" when there is none).
func (d *Dispatcher) unloadedRefusal(ev *protocol.Event) string {
	return UnloadedRefusal(d.cfg, d.opts.Gate, ev)
}

// UnloadedRefusal is what a dispatch through gate refuses ev with for
// cfg's sources that cannot be loaded ("" for nothing): also the answer
// to a call whose fields cannot be read, so that an unreadable call is
// never let through where a readable one would be refused.
func UnloadedRefusal(cfg *hookconfig.Config, gate Gate, ev *protocol.Event) string {
	if !ev.FailsClosed() {
		return ""
	}
	for _, u := range cfg.Unloaded {
		// A managed file's guards are everyone's, whatever this user
		// approved: always refused.
		if g, ok := gate.(ScopedGate); ok && !u.Managed && !u.Bundle && !g.MayRunIn(u.Project) {
			continue
		}
		return u.Refusal(ev)
	}
	return ""
}
