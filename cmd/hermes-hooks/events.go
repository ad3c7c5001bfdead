package main

import (
	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/protocol"
	"github.com/hermes-hooks/hermes-hooks/report"
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
	list := report.Events()
	if o.json {
		return writeJSON(a.Out, list)
	}
	report.PrintEvents(a.Out, list)
	return nil
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
