package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// EventInfo is one catalog event as `hermes-hooks events --json` lists it.
type EventInfo struct {
	Name             string   `json:"name"`
	Claude           string   `json:"claude"`
	Aliases          []string `json:"aliases"`
	Hermes           bool     `json:"hermes"`
	ClaudeOnly       bool     `json:"claude_only"`
	ShellUnsupported bool     `json:"shell_unsupported"`
	Gateway          bool     `json:"gateway"`
	Tool             bool     `json:"tool"`
	Can              []string `json:"can"`
}

// Events is the event catalog, in its order, as `hermes-hooks events`
// lists it.
func Events() []EventInfo {
	var list []EventInfo
	for _, e := range protocol.Events() {
		list = append(list, EventInfo{
			Name: e.Name, Claude: e.Claude, Aliases: nonNil(e.Aliases), Hermes: e.Hermes,
			ClaudeOnly: e.ClaudeOnly, ShellUnsupported: e.ShellUnsupported, Gateway: e.Gateway, Tool: e.Tool,
			Can: nonNil(e.Caps.Names()),
		})
	}
	return list
}

// PrintEvents prints the catalog as a table: each event's names, its Claude
// Code name and aliases, and what a hook on it can do.
func PrintEvents(w io.Writer, list []EventInfo) {
	fmt.Fprintf(w, "%-36s %-20s %-22s %s\n", "EVENT", "CLAUDE CODE", "ALIASES", "A HOOK CAN")
	for _, e := range list {
		claude := e.Claude
		if e.ClaudeOnly || claude == "" {
			claude = "-"
		}
		can := strings.Join(e.Can, ", ")
		switch {
		case e.ShellUnsupported:
			can = "(Python plugins only; refused for shell hooks)"
		case can == "":
			can = "observe"
		}
		name := e.Name
		if e.ClaudeOnly {
			name += " (Claude only)"
		}
		if e.Gateway {
			name += " (gateway)"
		}
		aliases := strings.Join(e.Aliases, ", ")
		if aliases == "" {
			aliases = "-"
		}
		fmt.Fprintf(w, "%-36s %-20s %-22s %s\n", name, claude, aliases, can)
	}
}

// nonNil makes a nil list encode as [], not null.
func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
