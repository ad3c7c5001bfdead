package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

type rulesOptions struct{ json, ids bool }

func newRulesCmd(a *app) *cobra.Command {
	var o rulesOptions
	cmd := &cobra.Command{
		Use:   "rules [show NAME]",
		Short: "List the ready-made rule files built into hermes-hooks, or print one",
		Long: `List the ready-made rule files built into this binary: each one's name, how
many rules it holds and what it guards against. Include one in a config (your
config.yaml, a repository's .hermes/hooks.yaml, or a rule file of your own)
by its name:

  rules: [builtin:destructive-shell, builtin:force-push]

A built-in rule file is read from the binary, never from disk, and is shown
as builtin:NAME wherever a rule's file is (list, log, validate, doctor). A
repository's use of one is approved like the repository's other rules, pinned
to their text: an upgrade of hermes-hooks that changes them asks again.

--ids lists each file's rules by id (force-push/push-force): the name log
--hook, replay, export and a refusal give a rule. 'rules show NAME' prints
the file, to read, or to copy and adapt into a rule
file of your own (then named by its path: rules: [~/.hermes/my-rules.yaml]).`,
		Example: `  hermes-hooks rules
  hermes-hooks rules --json | jq -r '.[].name'
  hermes-hooks rules --ids
  hermes-hooks log --hook destructive-shell/rm-rf
  hermes-hooks rules show force-push
  hermes-hooks rules show destructive-shell > ~/.hermes/destructive-shell.yaml`,
		Args: exactArgs(0, "no arguments, or the subcommand show NAME"),
		RunE: func(cmd *cobra.Command, args []string) error { return runRules(a, o) },
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print JSON for scripts (each file's rule ids under \"ids\")")
	cmd.Flags().BoolVar(&o.ids, "ids", false, "list each file's rules by id under it")
	cmd.AddCommand(newRulesShowCmd(a))
	return cmd
}

func newRulesShowCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "show NAME",
		Short: "Print a built-in rule file's YAML",
		Long: `Print the YAML of the built-in rule file NAME (as 'hermes-hooks rules' lists
it; builtin:NAME and NAME.yaml are read as NAME): its rules, their examples,
and the comments that say what each rule catches and misses.`,
		Example: `  hermes-hooks rules show force-push
  hermes-hooks rules show secrets-files | less`,
		Args:      exactArgs(1, "the name of a built-in rule file (hermes-hooks rules lists them)"),
		ValidArgs: hookconfig.BuiltinRuleNames(),
		RunE: func(cmd *cobra.Command, args []string) error {
			_, data, err := hookconfig.BuiltinRule(args[0])
			if err != nil {
				return usageErr("run 'hermes-hooks rules' for the list", "%v", err)
			}
			_, err = a.Out.Write(data)
			return err
		},
	}
}

func runRules(a *app, o rulesOptions) error {
	files, err := hookconfig.BuiltinRuleFiles()
	if err != nil {
		return err
	}
	if o.json {
		return writeJSON(a.Out, files)
	}
	printRules(a.Out, files, o.ids)
	return nil
}

// printRules prints the built-in rule files as a table (with ids, each
// file's rule ids under it), and how to use one.
func printRules(w io.Writer, files []hookconfig.BuiltinRuleFile, ids bool) {
	width := len("NAME")
	for _, f := range files {
		width = max(width, len(f.Name))
	}
	fmt.Fprintf(w, "%-*s  %5s  %s\n", width, "NAME", "RULES", "GUARDS AGAINST")
	for _, f := range files {
		fmt.Fprintf(w, "%-*s  %5d  %s\n", width, f.Name, f.Rules, f.Title)
		if ids {
			for _, id := range f.IDs {
				fmt.Fprintf(w, "  %s\n", id)
			}
		}
	}
	names := make([]string, 0, 2)
	for _, f := range files[:min(2, len(files))] {
		names = append(names, hookconfig.BuiltinPrefix+f.Name)
	}
	fmt.Fprintf(w, "\nInclude them in a config with rules: [%s]; 'hermes-hooks rules show NAME' prints one", strings.Join(names, ", "))
	if !ids {
		fmt.Fprint(w, ", --ids lists their rules by id")
	}
	fmt.Fprintln(w, ".")
}
