package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/internal/oneshot"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
)

type installOptions struct {
	project   string
	user      bool
	dryRun    bool
	uninstall bool
	json      bool
}

func newInstallCmd(a *app) *cobra.Command {
	var o installOptions
	cmd := &cobra.Command{
		Use:   "install AGENT [--project DIR | --user] [--dry-run] [--uninstall]",
		Short: "Make AGENT run hermes-hooks for its hook events (edits the agent's own hook file)",
		Long: `Writes AGENT's hook configuration so that every event hermes-hooks serves for
it runs 'hermes-hooks hook AGENT EVENT' (this binary, by absolute path).
AGENT is one of: ` + strings.Join(agents.Names(), ", ") + `, or hermes: the Hermes plugin
(clients/python) goes into $HERMES_HOME/plugins/hermes-hooks, so that a running
Hermes hands every hook event to hermes-hooks.

The file is edited in place: Claude Code's .claude/settings.json, Cursor's
.cursor/hooks.json, … in the project (--project, default the current
directory) or in your home directory (--user). Every other key and hook in it
stays as it was; hooks the agent's file declares itself keep being run by the
agent, and 'hermes-hooks hook' does not run them a second time.

A second install changes nothing; --uninstall takes out exactly what install
added. The previous file is kept beside it (` + install.BackupSuffix + `),
--dry-run prints the diff and writes nothing, and a file that does not parse
is never touched (the error gives its line and column; exit 1).

Hooks still need your approval before they run: see 'hermes-hooks list' and
'hermes-hooks approve'.`,
		Example: `  # Claude Code, this project: .claude/settings.json
  hermes-hooks install claude
  # see what would change first
  hermes-hooks install claude --project ~/src/app --dry-run
  # Cursor, for every project of this user: ~/.cursor/hooks.json
  hermes-hooks install cursor --user
  # take it out again
  hermes-hooks install claude --uninstall
  # the Hermes plugin, into $HERMES_HOME/plugins/hermes-hooks
  hermes-hooks install hermes --dry-run`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usageErr("hermes-hooks install AGENT, AGENT one of "+strings.Join(agents.Names(), ", "), "expected one AGENT")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if o.user && cmd.Flags().Changed("project") {
				return usageErr("use --project DIR or --user, not both", "both --project and --user given")
			}
			return runInstall(a, args[0], o, cmd.Flags().Changed("project"))
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.project, "project", ".", "the project whose hook file to edit")
	f.BoolVar(&o.user, "user", false, "edit the user's hook file in the home directory instead")
	f.BoolVar(&o.dryRun, "dry-run", false, "print the diff; write nothing")
	f.BoolVar(&o.uninstall, "uninstall", false, "remove what install added")
	f.BoolVar(&o.json, "json", false, "print JSON for scripts")
	return cmd
}

// installResult is --json's output.
type installResult struct {
	Agent   string   `json:"agent"`
	File    string   `json:"file"`
	Action  string   `json:"action"` // install or uninstall
	Changed bool     `json:"changed"`
	DryRun  bool     `json:"dry_run"`
	Backup  string   `json:"backup,omitempty"`
	Removed bool     `json:"file_removed,omitempty"`
	Events  []string `json:"events"`
	Diff    string   `json:"diff,omitempty"`
}

func runInstall(a *app, name string, o installOptions, projectSet bool) error {
	if name == "hermes" {
		return runInstallHermes(a, o, projectSet)
	}
	agent, ok := agents.Lookup(name)
	if !ok {
		return &exitError{Code: 1, Msg: fmt.Sprintf("unknown agent %q (known: %s, hermes)", name, strings.Join(agents.Names(), ", "))}
	}
	hf := agent.HookFile
	if hf.Project == "" || len(hf.Events) == 0 {
		return &exitError{Code: 1, Msg: agent.Title + ": install is not supported yet (its hook file is not known)"}
	}
	path, err := hookFilePath(hf, o)
	if err != nil {
		return &exitError{Code: 1, Msg: err.Error()}
	}
	exe, err := selfPath()
	if err != nil {
		return &exitError{Code: 1, Msg: "cannot find this program's path: " + err.Error()}
	}
	command := func(ev string) string { return shquote.Quote(exe) + " hook " + agent.Name + " " + ev }
	plan, err := install.Make(agent, path, command, o.uninstall)
	if err != nil {
		return &exitError{Code: 1, Msg: err.Error()}
	}
	res := installResult{Agent: agent.Name, File: plan.Path, Action: "install", Changed: plan.Changed, DryRun: o.dryRun, Removed: plan.Remove, Events: hf.Events}
	if o.uninstall {
		res.Action = "uninstall"
	}
	if o.dryRun {
		res.Diff = plan.Diff()
	} else if res.Backup, err = plan.Apply(); err != nil {
		return &exitError{Code: 1, Msg: fmt.Sprintf("%s: %v", plan.Path, err)}
	}
	if o.json {
		return writeJSON(a.Out, res)
	}
	printInstall(a, agent, res)
	return nil
}

func printInstall(a *app, agent *agents.Agent, r installResult) {
	file := show(r.File)
	switch {
	case r.DryRun && !r.Changed:
		fmt.Fprintf(a.Out, "%s: nothing to change (dry run)\n", file)
	case r.DryRun:
		printDiff(a, r.Diff)
		fmt.Fprintf(a.Err, "dry run: %s not written\n", file)
	case !r.Changed && r.Action == "uninstall":
		fmt.Fprintf(a.Out, "%s: hermes-hooks is not installed there; nothing changed\n", file)
	case !r.Changed:
		fmt.Fprintf(a.Out, "%s: already installed for %d %s events; nothing changed\n", file, len(r.Events), agent.Title)
	case r.Action == "uninstall":
		verb := "removed hermes-hooks from"
		if r.Removed {
			verb = "removed (it held only hermes-hooks):"
		}
		fmt.Fprintf(a.Out, "%s %s\n", verb, file)
	default:
		fmt.Fprintf(a.Out, "%s: %s now runs hermes-hooks for %s\n", file, agent.Title, strings.Join(r.Events, ", "))
		fmt.Fprintln(a.Out, "Approve the hooks it should run: hermes-hooks list; hermes-hooks approve --all")
		if n := agent.HookFile.Notice; n != "" {
			fmt.Fprintln(a.Out, "Note: "+n)
		}
	}
	if r.Backup != "" && !r.DryRun {
		fmt.Fprintf(a.Out, "previous file kept as %s\n", show(r.Backup))
	}
}

// hookFilePath is the agent's hook file for the project or the user.
func hookFilePath(hf agents.HookFile, o installOptions) (string, error) {
	if o.user {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(home, hf.User), nil
	}
	dir, err := filepath.Abs(o.project)
	if err != nil {
		return "", err
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("--project %s: not a directory", dir)
	}
	return filepath.Join(dir, hf.Project), nil
}

// selfPath is the absolute path the agent must run: the front's
// (cmd/hermes-hooks), as it told us when it handed us the command line;
// run directly, the sibling front beside this program when there is one,
// else this program, by the name it was started with (argv[0], looked up
// on PATH, so that a link a package manager keeps stable across upgrades
// stays the path written).
func selfPath() (string, error) {
	if frontSelf != "" {
		return frontSelf, nil
	}
	self, err := oneshot.StartedAs(os.Args[0])
	if err != nil {
		return "", err
	}
	if filepath.Base(self) == oneshot.FullName {
		front := filepath.Join(filepath.Dir(self), "hermes-hooks")
		if fi, err := os.Stat(front); err == nil && fi.Mode().IsRegular() {
			return front, nil
		}
	}
	return self, nil
}

// printDiff prints a dry run's diff, each line escaped for the terminal
// (show on the whole text would escape its newlines too).
func printDiff(a *app, diff string) {
	for _, l := range strings.SplitAfter(diff, "\n") {
		if l != "" {
			fmt.Fprintln(a.Out, show(strings.TrimSuffix(l, "\n")))
		}
	}
}
