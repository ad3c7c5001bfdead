package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/protocol"
)

type eventsOptions struct{ json bool }

func newEventsCmd(a *app) *cobra.Command {
	var o eventsOptions
	cmd := &cobra.Command{
		Use:   "events",
		Short: "List every event: canonical name, Claude Code name, aliases, what a hook can return",
		Long: `List the event catalog. Any of an event's names may be used in the config and
by hosts; a hook declared under a Claude Code name speaks the Claude dialect.
"can" says what a hook's reply can do on that event: block, modify (rewrite
the tool arguments), approve (ask a human / allow), context, continue (keep
the agent going), transform (replace a text). The events marked (gateway) are
Hermes' gateway hooks (HOOK.yaml events, the messaging gateway only), which
reach hermes-hooks through 'hermes-hooks install hermes --gateway'; command:*
stands for every slash command (command:model, command:reset, …), and a config
entry may name one command or the wildcard.`,
		Example: `  hermes-hooks events
  hermes-hooks events --json | jq -r '.[] | select(.claude != "") | "\(.claude) = \(.name)"'`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error { return runEvents(a, o) },
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON for scripts")
	return cmd
}

func runEvents(a *app, o eventsOptions) error {
	list := catalogEvents()
	if o.json {
		return writeJSON(a.Out, list)
	}
	printEvents(a.Out, list)
	return nil
}

// eventInfo is one catalog event as `hermes-hooks events --json` lists it.
type eventInfo struct {
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

// catalogEvents is the event catalog, in its order, as `hermes-hooks events`
// lists it.
func catalogEvents() []eventInfo {
	var list []eventInfo
	for _, e := range protocol.Events() {
		list = append(list, eventInfo{
			Name: e.Name, Claude: e.Claude, Aliases: nonNil(e.Aliases), Hermes: e.Hermes,
			ClaudeOnly: e.ClaudeOnly, ShellUnsupported: e.ShellUnsupported, Gateway: e.Gateway, Tool: e.Tool,
			Can: nonNil(e.Caps.Names()),
		})
	}
	return list
}

// printEvents prints the catalog as a table: each event's names, its Claude
// Code name and aliases, and what a hook on it can do.
func printEvents(w io.Writer, list []eventInfo) {
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

// lookupEventFlag reads an event named by a flag: any of its names, or a
// usage error with the closest name.
func lookupEventFlag(flag, name string) (*protocol.Event, error) {
	if ev, ok := protocol.Lookup(name); ok {
		return ev, nil
	}
	hint := "run 'hermes-hooks events' for the list"
	if s := protocol.SuggestEvent(name); s != "" {
		hint = "did you mean '" + s + "'?"
	}
	return nil, usageErr(hint, "%s: unknown event '%s'", flag, name)
}
