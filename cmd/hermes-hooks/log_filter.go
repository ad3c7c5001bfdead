package main

import (
	"strings"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// The values of log's and replay's --event and --decision. A value the
// journal never holds used to select nothing, silently: `log --decision
// deny` printed an empty journal. Each is now read to the name the journal
// records, or refused with a did-you-mean.

// filterEvent reads an --event value: any name the dispatcher accepts
// (canonical, Claude Code's, an alias) to the canonical name the journal
// records.
func filterEvent(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	if ev, ok := protocol.Lookup(s); ok {
		return ev.Name, nil
	}
	hint := "run 'hermes-hooks events' for the event names (Claude Code's, such as PreToolUse, are accepted too)"
	if sug := protocol.SuggestEvent(s); sug != "" {
		hint = "did you mean '" + sug + "'?"
	}
	return "", usageErr(hint, "unknown --event '%s'", s)
}

// journalDecisions are the outcome decisions a record holds, in the order
// the help lists them.
var journalDecisions = []string{"none", "allow", "ask", "block"}

// decisionAliases are other names people know these decisions by: Claude
// Code's permissionDecision "deny" and its (and Hermes') "approve".
var decisionAliases = map[string]string{"deny": "block", "approve": "allow"}

// filterDecision reads a --decision value, case-insensitive, to a decision
// the journal records.
func filterDecision(s string) (string, error) {
	if s == "" {
		return "", nil
	}
	v := strings.ToLower(strings.TrimSpace(s))
	for _, d := range journalDecisions {
		if v == d {
			return d, nil
		}
	}
	if d, ok := decisionAliases[v]; ok {
		return d, nil
	}
	hint := "one of: " + strings.Join(journalDecisions, ", ") + "; Claude Code's deny and approve mean block and allow"
	switch sug := protocol.Suggest(v, append(append([]string{}, journalDecisions...), "deny", "approve")); {
	case v == "defer":
		hint = "an outcome is never defer: a deferring hook leaves the decision to the agent, recorded as none (--decision none)"
	case sug != "":
		hint = "did you mean '" + sug + "'? (" + hint + ")"
	}
	return "", usageErr(hint, "unknown --decision '%s'", s)
}
