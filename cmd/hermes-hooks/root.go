package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/report"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/cli"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
	"github.com/hermes-hooks/hermes-hooks/internal/suggest"
)

// app holds what every command shares: the streams, the global flags and
// the one-shot commands' helpers (package oneshot).
type app struct {
	cli.App
}

// perEvent are the verbs an agent runs once per event. A start whose
// first argument names one builds that command alone: not the other
// verbs' flags and help, nor shell completion, which no such start reads
// (a shell's completion request starts with __complete; help with help).
// Every event pays for what a start builds, and on a VM where the first
// touch of memory is dear the rest of the tree was a millisecond of it
// (BENCHMARKS.md). TestPerEventCommandsAsInTheFullTree holds each one
// equal to its place in the whole tree.
var perEvent = map[string]func(*app) *cobra.Command{"hook": newHookCmd, "dispatch": newDispatchCmd}

// newRootCmd is the command tree for a run with args (nil: the whole
// tree, as help and completion show it).
func newRootCmd(a *app, args []string) *cobra.Command {
	root := &cobra.Command{
		Use:   "hermes-hooks",
		Short: "Shell-hook dispatcher for AI agents (Hermes and Claude Code hook scripts)",
		Long: `hermes-hooks runs the shell hooks of an AI agent: it finds the hooks configured
for an event, runs the approved ones with a JSON payload on stdin, reads each
reply (Hermes or Claude Code dialect) and folds them into one outcome: block,
ask, rewrite the arguments, add context, stop, or nothing.

Hooks are declared under hooks: in $HERMES_HOME/config.yaml (HERMES_HOME
defaults to ~/.hermes), in a repository's .hermes/hooks.yaml, or in the
agents' own hook files: Claude Code, Codex, Copilot, Cursor, Gemini CLI,
Qwen Code, Factory, Windsurf and Cline (claude_settings:, codex_hooks:, …
in the config, or the flags below). A rule: entry decides in-process,
without starting a script. No hook runs through 'dispatch' until you
approve it (a rule of your own config needs no approval); approvals live in
$HERMES_HOME/shell-hooks-allowlist.json (the file Hermes uses).

Environment: HERMES_HOME, HERMES_ACCEPT_HOOKS=1 (approve and record every
configured hook), HERMES_SAFE_MODE=1 (run no hook at all).`,
		// The README's five-minute tutorial, in order: its guard is
		// ~/.hermes/hooks/no-rm-rf.sh.
		Example: `  hermes-hooks validate
  hermes-hooks list
  hermes-hooks test pre_tool_call --for-tool terminal
  hermes-hooks approve ~/.hermes/hooks/no-rm-rf.sh
  echo '{"tool_name":"terminal","args":{"command":"rm -rf /"}}' | hermes-hooks dispatch pre_tool_call --format hermes
  hermes-hooks test --examples
  hermes-hooks install claude
  hermes-hooks doctor`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return nil
			}
			// An unknown command: say which one was probably meant.
			hint := "run 'hermes-hooks --help' for the commands"
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				hint = "did you mean '" + s[0] + "'?"
			}
			return usageErr(hint, "unknown command %q", args[0])
		},
		// No command: the full list, and exit 2 (nothing was done).
		RunE: usageOnly(a),
	}
	root.CompletionOptions.HiddenDefaultCmd = false
	root.SuggestionsMinimumDistance = 2
	setVersion(root)
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return usageErr(flagHint(cmd, err), "%s", plainFlagError(err))
	})
	pf := root.PersistentFlags()
	pf.StringVar(&a.ConfigPath, "config", "", "config file (default $HERMES_HOME/config.yaml)")
	a.AgentFiles = hookconfig.AgentFiles{}
	for _, ag := range agents.All() {
		if ag.Source.Flag != "" { // an agent whose hook files are no hook source
			pf.Var(agentFilesFlag{a.AgentFiles, ag.Name}, ag.Source.Flag, ag.Source.FlagHelp)
		}
	}
	pf.BoolVar(&a.AcceptHooks, "accept-hooks", false, "approve and record every configured hook that is not yet allowlisted")
	if len(args) > 0 {
		if build, ok := perEvent[args[0]]; ok {
			root.AddCommand(build(a))
			root.CompletionOptions.DisableDefaultCmd = true
			usageArgs(root)
			return root
		}
	}
	root.AddCommand(
		newListCmd(a),
		newTestCmd(a),
		newApproveCmd(a),
		newRevokeCmd(a),
		newDoctorCmd(a),
		newValidateCmd(a),
		newDispatchCmd(a),
		newHookCmd(a),
		newInstallCmd(a),
		newUninstallCmd(a),
		newInstallsCmd(a),
		newServeCmd(a),
		newEventsCmd(a),
		newRulesCmd(a),
		newLogCmd(a),
		newReplayCmd(a),
		newExportCmd(a),
		newVersionCmd(a),
		newBundleCmd(a),
	)
	registerCompletions(root, a)
	// Added now rather than by Execute, so that usageArgs reaches it.
	root.InitDefaultCompletionCmd()
	if c, _, err := root.Find([]string{"completion"}); err == nil && c != root {
		c.Example = `  source <(hermes-hooks completion bash)
  hermes-hooks completion zsh > "${fpath[1]}/_hermes-hooks"
  hermes-hooks completion fish > ~/.config/fish/completions/hermes-hooks.fish`
	}
	usageArgs(root)
	return root
}

// usageArgs makes every Args validator's error under cmd a usage error
// (exit 2, with a hint at --help), cobra's own ones included (the
// completion command's NoArgs): a validator judges only the command line,
// and an error it returns unclassified would otherwise exit 1 as if the
// command had run and failed.
func usageArgs(cmd *cobra.Command) {
	if check := cmd.Args; check != nil {
		cmd.Args = func(c *cobra.Command, args []string) error {
			err := check(c, args)
			if ue := (*cli.UsageError)(nil); err == nil || errors.As(err, &ue) {
				return err
			}
			return usageErr("run '"+c.CommandPath()+" --help' for usage", "%v", err)
		}
	}
	for _, sub := range cmd.Commands() {
		usageArgs(sub)
	}
}

// exactArgs is cobra.ExactArgs with our usage exit code and a hint.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			hint := "run '" + cmd.CommandPath() + " --help' for usage and examples"
			// `validate team.yaml`: the file a newcomer wants checked is
			// named with --config, which the usual hint leaves to --help.
			if n == 0 && len(args) == 1 && cmd.Flag("config") != nil &&
				(strings.HasSuffix(args[0], ".yaml") || strings.HasSuffix(args[0], ".yml")) {
				hint = "a config file is named with --config: " + cmd.CommandPath() + " --config " + show(shquote.IfNeeded(args[0]))
			}
			return usageErr(hint, "%s takes %s (got %s)", cmd.CommandPath(), what, report.Count(len(args), "argument", "arguments"))
		}
		return nil
	}
}

// configLabel is how human output names the config file: Hermes prints
// ~/.hermes/config.yaml literally; we print the real path.
func (a *app) configLabel() string {
	p, err := a.Config()
	if err != nil {
		return "~/.hermes/config.yaml"
	}
	if home, err := os.UserHomeDir(); err == nil && strings.HasPrefix(p, home+"/") {
		return "~" + p[len(home):]
	}
	return p
}

// plainFlagError is pflag's error for a flag value, without the Go
// parser's own words: `invalid argument "x" for "-n, --last" flag:
// strconv.ParseInt: parsing "x": invalid syntax` says "not a whole
// number".
func plainFlagError(err error) string {
	msg := err.Error()
	i := strings.Index(msg, ": strconv.Parse")
	if i < 0 {
		return msg
	}
	what := "not a number"
	switch {
	case strings.HasSuffix(msg, "value out of range"):
		what = "out of range"
	case strings.HasPrefix(msg[i+2:], "strconv.ParseInt"), strings.HasPrefix(msg[i+2:], "strconv.ParseUint"):
		what = "not a whole number"
	case strings.HasPrefix(msg[i+2:], "strconv.ParseBool"):
		what = "not true or false"
	}
	return msg[:i] + ": " + what
}

// flagHint is the hint for a flag error: the flag probably meant, when an
// unknown flag is close to one of the command's.
func flagHint(cmd *cobra.Command, err error) string {
	hint := "run '" + cmd.CommandPath() + " --help' for usage"
	name, ok := strings.CutPrefix(err.Error(), "unknown flag: --")
	if !ok {
		return hint
	}
	var names []string
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if !f.Hidden {
			names = append(names, f.Name)
		}
	})
	cmd.InheritedFlags().VisitAll(func(f *pflag.Flag) { names = append(names, f.Name) })
	if s := suggest.Closest(name, names); s != "" {
		return "did you mean --" + s + "?"
	}
	return hint
}

// agentFilesFlag is one agent's --xxx FILE flag (repeatable): each use adds
// a file to that agent's list, as pflag's StringArray does.
type agentFilesFlag struct {
	files hookconfig.AgentFiles
	agent string
}

func (f agentFilesFlag) Set(v string) error {
	f.files[f.agent] = append(f.files[f.agent], v)
	return nil
}

// String is the files given so far; "" for none, so that help shows no
// "(default [])" after each of these flags.
func (f agentFilesFlag) String() string {
	if len(f.files[f.agent]) == 0 {
		return ""
	}
	return "[" + strings.Join(f.files[f.agent], ",") + "]"
}
func (f agentFilesFlag) Type() string { return "stringArray" }

// usageOnly is the RunE of a command that does nothing by itself (the
// root, a group of subcommands): its usage, and exit 2.
func usageOnly(a *app) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, _ []string) error {
		fmt.Fprint(a.Out, cmd.UsageString())
		return silentExit(2)
	}
}
