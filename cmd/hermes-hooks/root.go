package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/dispatcher"
	"github.com/spf13/cobra"
)

// app holds what every command shares: the streams and the global flags.
type app struct {
	in       io.Reader
	out, err io.Writer

	configPath     string
	claudeSettings []string
	// Other agents' hook files (--codex-hooks …), read as Claude settings
	// files are.
	codexHooks, copilotHooks, cursorHooks []string
	acceptHooks                           bool
}

func newRootCmd(a *app) *cobra.Command {
	root := &cobra.Command{
		Use:   "hermes-hooks",
		Short: "Shell-hook dispatcher for AI agents (Hermes and Claude Code hook scripts)",
		Long: `hermes-hooks runs the shell hooks of an AI agent: it finds the hooks configured
for an event, runs the approved ones with a JSON payload on stdin, reads each
reply (Hermes or Claude Code dialect) and folds them into one outcome: block,
ask, rewrite the arguments, add context, stop, or nothing.

Hooks are declared under hooks: in $HERMES_HOME/config.yaml (HERMES_HOME
defaults to ~/.hermes), or in Claude Code settings files and Codex, Copilot
and Cursor hook files (claude_settings:, codex_hooks:, copilot_hooks:,
cursor_hooks: in the config, or the flags below). Nothing runs through
'dispatch' until you approve it; approvals live in
$HERMES_HOME/shell-hooks-allowlist.json (the file Hermes uses).

Environment: HERMES_HOME, HERMES_ACCEPT_HOOKS=1 (approve and record every
configured hook), HERMES_SAFE_MODE=1 (run no hook at all).`,
		Example: `  hermes-hooks list
  hermes-hooks test pre_tool_call --for-tool terminal
  hermes-hooks approve ~/.hermes/hooks/block-rm-rf.sh
  echo '{"tool_name":"terminal","args":{"command":"rm -rf /"}}' | hermes-hooks dispatch pre_tool_call
  hermes-hooks doctor`,
		SilenceErrors: true,
		SilenceUsage:  true,
		Args:          cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintln(a.out, "Usage: hermes-hooks {list|test|approve|revoke|doctor|dispatch|serve|hook|install|log|replay}")
			fmt.Fprintln(a.out, "Run 'hermes-hooks --help' for details.")
			return nil
		},
	}
	root.CompletionOptions.HiddenDefaultCmd = false
	root.SetFlagErrorFunc(func(cmd *cobra.Command, err error) error {
		return usageErr("run '"+cmd.CommandPath()+" --help' for usage", "%v", err)
	})
	pf := root.PersistentFlags()
	pf.StringVar(&a.configPath, "config", "", "config file (default $HERMES_HOME/config.yaml)")
	pf.StringArrayVar(&a.claudeSettings, "claude-settings", nil, "also load hooks from this Claude Code settings file (repeatable)")
	pf.StringArrayVar(&a.codexHooks, "codex-hooks", nil, "also load hooks from this Codex hooks.json (repeatable)")
	pf.StringArrayVar(&a.copilotHooks, "copilot-hooks", nil, "also load hooks from this GitHub Copilot CLI hook file (repeatable)")
	pf.StringArrayVar(&a.cursorHooks, "cursor-hooks", nil, "also load hooks from this Cursor hooks.json; they speak Cursor's protocol (repeatable)")
	pf.BoolVar(&a.acceptHooks, "accept-hooks", false, "approve and record every configured hook that is not yet allowlisted")

	root.AddCommand(
		newListCmd(a),
		newTestCmd(a),
		newApproveCmd(a),
		newRevokeCmd(a),
		newDoctorCmd(a),
		newDispatchCmd(a),
		newHookCmd(a),
		newInstallCmd(a),
		newServeCmd(a),
		newEventsCmd(a),
		newLogCmd(a),
		newReplayCmd(a),
		newVersionCmd(a),
	)
	return root
}

// exactArgs is cobra.ExactArgs with our usage exit code and a hint.
func exactArgs(n int, what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != n {
			return usageErr("run '"+cmd.CommandPath()+" --help' for usage and examples",
				"%s takes %s (got %d argument(s))", cmd.CommandPath(), what, len(args))
		}
		return nil
	}
}

// home is HERMES_HOME (default ~/.hermes).
func (a *app) home() (string, error) {
	h, err := consent.DefaultHome()
	if err != nil {
		return "", &exitError{code: 1, msg: err.Error(), hint: "set HERMES_HOME"}
	}
	return h, nil
}

// config returns the config file path: --config, else $HERMES_HOME/config.yaml.
func (a *app) config() (string, error) {
	if a.configPath != "" {
		return a.configPath, nil
	}
	p, err := dispatcher.DefaultConfigPath()
	if err != nil {
		return "", &exitError{code: 1, msg: err.Error(), hint: "set HERMES_HOME"}
	}
	return p, nil
}

// configLabel is how human output names the config file: Hermes prints
// ~/.hermes/config.yaml literally; we print the real path.
func (a *app) configLabel() string {
	p, err := a.config()
	if err != nil {
		return "~/.hermes/config.yaml"
	}
	if home, err := os.UserHomeDir(); err == nil && strings.HasPrefix(p, home+"/") {
		return "~" + p[len(home):]
	}
	return p
}

// loadConfig reads the config, the agents' hook files and the project's
// .hermes/hooks.yaml (found from the working directory), printing every
// warning on stderr.
func (a *app) loadConfig() (*dispatcher.Config, error) { return a.loadConfigFor(cwd()) }

// loadConfigFor is loadConfig for a project directory other than the
// working directory (dispatch uses the host's cwd field).
func (a *app) loadConfigFor(projectDir string) (*dispatcher.Config, error) {
	path, err := a.config()
	if err != nil {
		return nil, err
	}
	cfg, err := dispatcher.Load(path, a.loadOptions(projectDir))
	if err != nil {
		return nil, err
	}
	for _, w := range cfg.Warnings {
		a.warn(w.String())
	}
	return cfg, nil
}

// loadOptions are the agent hook files of the command line, and the
// project directory.
func (a *app) loadOptions(projectDir string) dispatcher.LoadOptions {
	return dispatcher.LoadOptions{
		ClaudeSettings: a.claudeSettings,
		CodexHooks:     a.codexHooks,
		CopilotHooks:   a.copilotHooks,
		CursorHooks:    a.cursorHooks,
		ProjectDir:     projectDir,
	}
}

func (a *app) warn(msg string) {
	fmt.Fprintf(a.err, "hermes-hooks: warning: %s\n", show(msg))
}

// store is the allowlist in HERMES_HOME.
func (a *app) store() (*consent.Store, error) {
	h, err := a.home()
	if err != nil {
		return nil, err
	}
	return consent.NewStore(h), nil
}

// policy is the consent policy for running hooks: the accept channels of
// the flag, HERMES_ACCEPT_HOOKS and hooks_auto_accept, and HERMES_SAFE_MODE.
// No prompt: stdin carries the event (dispatch), and an agent calling us
// must never hang on a question nobody sees.
func (a *app) policy(cfg *dispatcher.Config, store *consent.Store) *consent.Policy {
	return consent.NewPolicy(store, consent.PolicyOptions{
		AcceptFlag:       a.acceptHooks,
		ConfigAutoAccept: cfg.AutoAccept,
		Warn:             a.warn,
	})
}

func cwd() string {
	wd, _ := os.Getwd()
	return wd
}
