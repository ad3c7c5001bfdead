package protocol

import (
	"sort"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/internal/suggest"
)

// The catalog's names as lists: Hermes' own, the ones config accepts, and
// the did-you-mean over every accepted name.

// HermesEventNames returns Hermes' VALID_HOOKS, sorted, exactly as Hermes
// prints them after "Valid events: ".
func HermesEventNames() []string {
	var out []string
	for i := range catalog {
		if catalog[i].Hermes {
			out = append(out, catalog[i].Name)
		}
	}
	sort.Strings(out)
	return out
}

// ValidEventNames returns every canonical name hermes-hooks accepts in
// config and on the command line: Hermes' 41 plus our own canonical
// events, sorted, then the gateway events, sorted (so that the list starts
// as Hermes prints its own). Claude names, aliases and the members of a
// family (command:model) are accepted too but not listed here.
func ValidEventNames() []string {
	var out, gateway []string
	for i := range catalog {
		switch {
		case catalog[i].Gateway:
			gateway = append(gateway, catalog[i].Name)
		case !catalog[i].ClaudeOnly:
			out = append(out, catalog[i].Name)
		}
	}
	sort.Strings(out)
	sort.Strings(gateway)
	return append(out, gateway...)
}

// AllEventNames returns every accepted name, sorted: canonical, Claude and
// aliases. It is the candidate set for SuggestEvent.
func AllEventNames() []string {
	out := make([]string, 0, len(byName))
	for n := range byName {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// SuggestEvent returns the closest accepted event name to name, or "" when
// nothing is close enough (difflib's get_close_matches with n=1 and cutoff
// 0.6, the rule Hermes uses for its did-you-mean).
//
// A name with a ':' is a gateway hook's and is compared with those only,
// and a name without one with the others only: a typo of on_session_start
// must not be answered with session:start.
func SuggestEvent(name string) string {
	gateway := strings.Contains(name, ":")
	var candidates []string
	for _, n := range AllEventNames() {
		if strings.Contains(n, ":") == gateway {
			candidates = append(candidates, n)
		}
	}
	return suggest.Closest(name, candidates)
}

// eventListing is the "(valid: …)" tail Hermes prints when no close match
// exists.
func eventListing() string { return strings.Join(ValidEventNames(), ", ") }

// UnknownEventMessage is the warning for an unknown event key in config:
// with a did-you-mean when one is close, otherwise the sorted valid list.
func UnknownEventMessage(name string) string {
	if s := SuggestEvent(name); s != "" {
		return "unknown hook event '" + name + "' in hooks: config — did you mean '" + s + "'?"
	}
	return "unknown hook event '" + name + "' in hooks: config (valid: " + eventListing() + ")"
}
