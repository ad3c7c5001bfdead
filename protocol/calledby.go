package protocol

import "strings"

// A called-by list names the agents a dispatch answers, in the order the
// call named them: "claude", or "copilot,claude" when one host's call runs
// several agents' hook files. The list is kept whole where a firing must
// be made again as it was (the journal, replay); whoever needs the one
// agent that called — a rule's `agent`, an exported record —
// takes FirstCaller of it, so all of them name the same agent.

// OwnRunElsewhere, in a called-by list, says the caller's other call for
// this event runs the hooks of no agent's file. No agent is called so.
const OwnRunElsewhere = "(elsewhere)"

// HostCapsStops, in a called-by list, says the caller bounds a stop
// hook's consecutive blocks itself (Claude Code's cap): the dispatcher
// keeps no cap of its own for it (dispatcher/stopcap.go). No agent is
// called so.
const HostCapsStops = "(caps-stops)"

// FirstCaller is the agent whose hook call a called-by list is: its first
// name that is an agent's ("" when none is).
func FirstCaller(calledBy string) string {
	for a := range strings.SplitSeq(calledBy, ",") {
		if a != "" && a != OwnRunElsewhere && a != HostCapsStops {
			return a
		}
	}
	return ""
}
