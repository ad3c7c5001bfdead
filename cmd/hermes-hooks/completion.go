package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/protocol"
)

// Shell completion (hermes-hooks completion bash|zsh|fish|powershell)
// offers what each argument can be: event names, agent names, the commands
// the config declares. It is set up here, in one place, for every verb by
// name, so that a verb's file stays about its job.

func registerCompletions(root *cobra.Command, a *app) {
	events := func(_ *cobra.Command, _ []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return withPrefix(protocol.AllEventNames(), prefix), cobra.ShellCompDirectiveNoFileComp
	}
	commands := func(_ *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return withPrefix(a.configuredCommands(), prefix), cobra.ShellCompDirectiveNoFileComp
	}
	installable := installables()
	for _, cmd := range root.Commands() {
		switch cmd.Name() {
		case "test", "dispatch":
			cmd.ValidArgsFunction = firstArg(events)
		case "hook":
			cmd.ValidArgsFunction = func(c *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
				switch len(args) {
				case 0:
					return withPrefix(agents.Names(), prefix), cobra.ShellCompDirectiveNoFileComp
				case 1:
					if ag, ok := agents.Lookup(args[0]); ok {
						names := make([]string, 0, len(ag.Events))
						for n := range ag.Events {
							names = append(names, n)
						}
						slices.Sort(names)
						return withPrefix(names, prefix), cobra.ShellCompDirectiveNoFileComp
					}
				}
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
		case "install", "uninstall":
			cmd.ValidArgsFunction = firstArg(func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
				return installable, cobra.ShellCompDirectiveNoFileComp
			})
		case "approve", "revoke":
			cmd.ValidArgsFunction = commands
		}
		if cmd.Flags().Lookup("event") != nil {
			_ = cmd.RegisterFlagCompletionFunc("event", events)
		}
	}
}

// firstArg completes the first argument with f, and nothing after it.
func firstArg(f cobra.CompletionFunc) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, prefix string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		list, dir := f(cmd, args, prefix)
		return withPrefix(list, prefix), dir
	}
}

func withPrefix(list []string, prefix string) []string {
	var out []string
	for _, s := range list {
		if strings.HasPrefix(s, prefix) {
			out = append(out, s)
		}
	}
	return out
}

// configuredCommands are the commands of every configured hook, once each;
// none when the config cannot be read (completion never complains).
func (a *app) configuredCommands() []string {
	cfg, err := a.LoadConfigQuiet()
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range cfg.Listed {
		if !slices.Contains(out, e.Text()) {
			out = append(out, e.Text())
		}
	}
	return out
}
