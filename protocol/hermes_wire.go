package protocol

import (
	"sort"
	"strings"
)

// What a Hermes host does with a rewrite (its pre_tool_call dispatcher,
// spec §3): a modify's mapping is merged shallowly over the arguments the
// model sent, and an empty one is ignored. So Hermes cannot drop a key,
// cannot empty the arguments, and cannot carry a rewrite beside an
// approve: each of those would run a call other than the one the outcome
// holds, which the rules judged again (rejudge) and the journal records.
// Those are refused, as agents' hostArgs refuses a rewrite its host's input
// cannot say.

// hermesMergeLoses says why Hermes would not run args as its modify: ""
// when it would. sent is the arguments Hermes sent (nil: not known, and
// only the empty rewrite is told).
func hermesMergeLoses(args, sent map[string]any) string {
	if len(args) == 0 {
		return "Hermes ignores a rewrite to no arguments: the call would run as sent"
	}
	var dropped []string
	for k := range sent {
		if _, ok := args[k]; !ok {
			dropped = append(dropped, k)
		}
	}
	if len(dropped) == 0 {
		return ""
	}
	sort.Strings(dropped)
	return "Hermes merges a rewrite over the arguments it sent, so the ones the rewrite dropped (" +
		strings.Join(dropped, ", ") + ") would come back"
}

// hermesUncarried is the block a rewrite Hermes cannot carry becomes.
func hermesUncarried(why string) Object {
	return Object{{"action", "block"}, {"message", "hermes-hooks: a hook rewrote this call's arguments, and " + why +
		"; it is refused rather than run as nobody judged it"}}
}
