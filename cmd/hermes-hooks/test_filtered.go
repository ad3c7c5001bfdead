package main

import (
	"fmt"
	"io"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/internal/textutil"
	"github.com/hermes-hooks/hermes-hooks/report"
)

// filteredHook is a hook configured for the event that `test` did not fire:
// its matcher does not accept --for-tool's tool (Tool), or it was
// declared under a member of the event's family (command:model) this
// firing is not (Member; Fired: the name fired), or its Claude `if` rule
// does not fit the call (IfRule), as dispatch would select.
type filteredHook struct {
	Entry  *hookconfig.Entry
	Tool   string
	Member bool
	Fired  string
	IfRule bool
}

// Why says in words why the hook was not fired: "by its matcher (matcher:
// Bash, tool: terminal)".
func (f filteredHook) why() string {
	e := f.Entry
	switch {
	case f.IfRule && !e.Event.IfRule:
		return "by its if rule (if: " + textutil.Truncate(e.If, 80) + "): an if rule applies to tool events only, so Claude Code never runs it on " + e.DeclaredAs
	case f.IfRule:
		return "by its if rule (if: " + textutil.Truncate(e.If, 80) + "), which this call does not fit"
	case f.Member:
		return "by its event: declared under " + e.DeclaredAs + ", which this firing (" + f.Fired + ") is not"
	case e.Matcher == "":
		// No matcher, yet not matching: an event of another agent that
		// stands for some of this event's calls only.
		return "by its event: declared under " + e.DeclaredAs + ", which does not stand for this call (tool: " + f.Tool + ")"
	}
	return "by its matcher (matcher: " + textutil.Truncate(e.Matcher, 80) + ", tool: " + f.Tool + ")"
}

// printFiltered says which hooks of the event were configured but not
// fired, and why — rather than "no hooks configured", which sends the user
// looking for a config problem that is a matcher's. With no run at all it
// replaces printTrial's report.
func printFiltered(w io.Writer, filtered []filteredHook, ran int) {
	switch {
	case len(filtered) == 0:
	case ran == 0 && len(filtered) == 1:
		fmt.Fprintf(w, "1 hook configured for this event, filtered out %s:\n  %s\n", show(filtered[0].why()), show(filtered[0].Entry.Text()))
		fmt.Fprintln(w, "Nothing was fired.")
	default:
		lead := report.Count(len(filtered), "hook", "hooks") + " configured for this event, filtered out:"
		if ran > 0 {
			lead = "\nNot fired: " + report.Count(len(filtered), "more hook", "more hooks") + " of this event, filtered out:"
		}
		fmt.Fprintln(w, lead)
		for _, f := range filtered {
			fmt.Fprintf(w, "  %s: %s\n", show(f.Entry.Text()), show(f.why()))
		}
		if ran == 0 {
			fmt.Fprintln(w, "Nothing was fired.")
		}
	}
}

// filteredJSON is the filtered hooks for test --json.
func filteredJSON(filtered []filteredHook) []map[string]any {
	out := make([]map[string]any, 0, len(filtered))
	for _, f := range filtered {
		out = append(out, map[string]any{"event": f.Entry.DeclaredAs, "command": f.Entry.Text(),
			"matcher": f.Entry.Matcher, "if": f.Entry.If, "reason": "filtered out " + f.why()})
	}
	return out
}
