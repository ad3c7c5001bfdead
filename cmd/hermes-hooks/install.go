package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/internal/suggest"
	"github.com/hermes-hooks/hermes-hooks/report"
)

type installOptions struct {
	all       bool // uninstall --all: every installation of the registry
	project   string
	user      bool
	dryRun    bool
	uninstall bool
	json      bool
	absolute  bool   // run this binary by its absolute path, even in a project's file
	local     bool   // the agent's settings of this checkout only (HookFile.Local)
	refresh   bool   // rewrite every file that holds our entries
	gateway   bool   // hermes: the gateway hook too
	agent     string // open-plugin: whose protocol its hooks speak
	m         managedOptions
}

func newInstallCmd(a *app) *cobra.Command {
	var o installOptions
	cmd := &cobra.Command{
		Use:   "install AGENT [--project DIR | --user] [--dry-run] [--uninstall]",
		Short: "Make AGENT run hermes-hooks for its hook events (edits the agent's own hook file)",
		Long: `Writes AGENT's hook configuration so that every event hermes-hooks serves for
it runs 'hermes-hooks hook AGENT EVENT'. A project's file, which the team
commits, runs hermes-hooks by name from PATH, so that it works for every
teammate and after the binary moves; where hermes-hooks is not on PATH, a
tool call is refused in the agent's own words, saying how to install it,
and other events pass. A file in your home directory (--user) runs this
binary by its absolute path, as does --absolute; where that file is gone
or not executable, the line answers the same way. Each command line carries
--agent-timeout SECONDS, how long the agent waits for it, so that
'hermes-hooks hook' answers in time. --local writes Claude Code's
.claude/settings.local.json (this checkout only). 'install --refresh'
rewrites every installed entry, in this project, your home directory and
every project 'installs' lists, after hermes-hooks moved or was upgraded.
AGENT is one of: ` + strings.Join(agents.Names(), ", ") + `, or open-plugin DIR, or opencode, or hermes: the Hermes plugin
(clients/python) goes into $HERMES_HOME/plugins/hermes-hooks and is enabled in
$HERMES_HOME/config.yaml (plugins.enabled, as 'hermes plugins enable' does, every
other byte of the file kept), so that Hermes hands every hook event to
hermes-hooks. With --gateway, the gateway hook goes into
$HERMES_HOME/hooks/hermes-hooks too: the messaging gateway's own events
(gateway:startup, session:*, agent:*, command:*) reach hermes-hooks, in the
background.

'install open-plugin DIR' writes an Open Plugins plugin into DIR (its root,
such as .agents/plugins/hermes-hooks, where Goose looks): plugin.json and
hooks/hooks.json, whose hooks run 'hermes-hooks hook AGENT EVENT' for the
Open Plugins events AGENT registers (--agent, default ` + agents.OpenPluginAgent + `: the
format's hooks are that agent's). 'uninstall open-plugin DIR' removes those
two files, and never a file there that hermes-hooks did not write.

'install opencode': OpenCode runs JavaScript plugins, not commands; install
writes one small plugin, .opencode/plugins/hermes-hooks.js (--user:
~/.config/opencode/plugins/hermes-hooks.js), that runs 'hermes-hooks hook claude
PreToolUse' before every tool call (a refusal, or hermes-hooks failing, stops
the call with the reason) and PostToolUse after it. Its first line marks it as
hermes-hooks'; a file of that name without the mark is never overwritten or
removed.

The file is edited in place: Claude Code's .claude/settings.json, Cursor's
.cursor/hooks.json, Windsurf's .windsurf/hooks.json, … in the project or in
your home directory (--user). Cline runs one executable per event from a
folder (.clinerules/hooks, or ~/Documents/Cline/Hooks with --user): install
writes a small marked script there per event, never over a hook of yours,
and uninstall removes only the files it wrote (on Windows, where nothing
runs those shell scripts, install writes none and says so).
The project is --project DIR; by default the root of the git repository
holding the current directory (the nearest directory above it with .git),
where the agents read their project files, or the current directory outside
a repository; install says which. Only the entries of hermes-hooks change:
every other key and hook keeps its exact bytes (a compact "allow": [...]
stays on its line); hooks the agent's file declares itself keep being run by
the agent, and 'hermes-hooks hook' does not run them a second time.

A second install changes nothing; 'hermes-hooks uninstall AGENT' (or
--uninstall) takes out exactly what install added. The previous file is kept
in $HERMES_HOME/install-backups (never in the project, where git would show
it; install prints where), --dry-run prints the diff and writes nothing,
and a file that does not parse is never touched (the error gives its line
and column; exit 1). Every file install writes is recorded in
$HERMES_HOME/` + install.RegistryFile + `: 'hermes-hooks installs' lists them,
'hermes-hooks uninstall --all' takes them all out.

Hooks still need your approval before they run: see 'hermes-hooks list' and
'hermes-hooks approve'.` + managedHelp,
		Example: `  # Claude Code, this project (the git repository's root): .claude/settings.json
  hermes-hooks install claude
  # see what would change first
  hermes-hooks install claude --project ~/src/app --dry-run
  # Cursor, for every project of this user: ~/.cursor/hooks.json
  hermes-hooks install cursor --user
  # Windsurf's workspace hooks.json; Cline's hooks folder, for this user
  hermes-hooks install windsurf
  hermes-hooks install cline --user
  # take it out again
  hermes-hooks uninstall claude
  # after moving or upgrading hermes-hooks: every file install wrote (here, in ~, in each project 'installs' lists)
  hermes-hooks install --refresh
  # the Hermes plugin, into $HERMES_HOME/plugins/hermes-hooks, enabled
  hermes-hooks install hermes --dry-run
  # and the gateway hook, into $HERMES_HOME/hooks/hermes-hooks
  hermes-hooks install hermes --gateway
  # an Open Plugins plugin for Goose, in this project
  hermes-hooks install open-plugin .agents/plugins/hermes-hooks
  # OpenCode's plugin, .opencode/plugins/hermes-hooks.js
  hermes-hooks install opencode
  # as root: Claude Code's managed settings for every user, managed hooks only
  sudo /usr/local/bin/hermes-hooks install claude --managed --managed-only
  # Codex's /etc/codex/requirements.toml, see the change first
  sudo /usr/local/bin/hermes-hooks install codex --managed --dry-run`,
		Args: agentArg("install"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runInstallCmd(a, cmd, args, o)
		},
	}
	installFlags(cmd, &o)
	managedFlags(cmd, &o.m)
	cmd.Flags().BoolVar(&o.uninstall, "uninstall", false, "remove what install added (as 'hermes-hooks uninstall AGENT')")
	cmd.Flags().BoolVar(&o.absolute, "absolute", false, "run this binary by its absolute path, even in a project's file")
	cmd.Flags().BoolVar(&o.refresh, "refresh", false, "rewrite every installed entry (this project's, the user's and every project 'installs' lists) after a move or an upgrade; no AGENT")
	cmd.Flags().BoolVar(&o.gateway, "gateway", false, "hermes: install the gateway hook too ($HERMES_HOME/hooks/hermes-hooks)")
	openPluginFlag(cmd, &o)
	return cmd
}

func newUninstallCmd(a *app) *cobra.Command {
	var o installOptions
	cmd := &cobra.Command{
		Use:   "uninstall AGENT [--project DIR | --user] [--dry-run] | uninstall --all [--dry-run]",
		Short: "Take out what 'hermes-hooks install AGENT' added to the agent's hook file",
		Long: `Removes the entries 'hermes-hooks install AGENT' added, and nothing else
(the same as 'hermes-hooks install AGENT --uninstall').
AGENT is one of: ` + strings.Join(agents.Names(), ", ") + `, or open-plugin DIR (the two
files 'install open-plugin DIR' wrote), or opencode (the plugin file
'install opencode' wrote, if it still carries its mark), or hermes (the plugin files in
$HERMES_HOME/plugins/hermes-hooks, the gateway hook in $HERMES_HOME/hooks/hermes-hooks,
and the plugin's entry in config.yaml's plugins.enabled).

The project is found as install finds it: --project DIR, else the root of the
git repository holding the current directory, else the current directory.
When the file is exactly what install made of it, it comes back as it was,
byte for byte, from the backup install kept ($HERMES_HOME/install-backups, or
` + install.BackupSuffix + ` beside the file from an earlier release), unless
that backup holds entries of hermes-hooks itself (a second install changed
them: an upgrade, --absolute); a file
install created, holding nothing else, is removed, with the directories
install created for it (as the registry records them) that are left empty;
a directory that was there before install stays. Either way the backup goes too.
A file git tracks (the team committed it) or one install did not create is
never removed: our entries go, the file stays, and uninstall says why.
Otherwise only our entries go, and the previous file is kept as the backup
(in $HERMES_HOME/install-backups).
A second uninstall changes nothing.

--all takes out every installation 'hermes-hooks installs' lists (the
registry of what install wrote, $HERMES_HOME/` + install.RegistryFile + `), in your
home directory and in every project, each as 'uninstall AGENT' would,
printing each. A file edited by hand so that no entry of hermes-hooks is
left in it is left alone (its record is dropped). One that cannot be taken
out is reported and the others still are; the exit status is then 1.

--managed takes the entries out of AGENT's admin settings ('install AGENT
--managed'); with --managed-only also the agent's managed-hooks-only switch.`,
		Example: `  # this project's .claude/settings.json
  hermes-hooks uninstall claude
  # see what would change first
  hermes-hooks uninstall cursor --dry-run
  # the user's ~/.codex/hooks.json
  hermes-hooks uninstall codex --user
  # the Hermes plugin
  hermes-hooks uninstall hermes
  # everything install wrote, here and in every other project
  hermes-hooks installs
  hermes-hooks uninstall --all --dry-run
  hermes-hooks uninstall --all
  # as root: Claude Code's managed settings, and its managed-hooks-only switch
  sudo hermes-hooks uninstall claude --managed --managed-only`,
		Args: agentArg("uninstall"),
		RunE: func(cmd *cobra.Command, args []string) error {
			o.uninstall = true
			if o.all {
				return runUninstallAll(a, cmd, o)
			}
			return runInstallCmd(a, cmd, args, o)
		},
	}
	installFlags(cmd, &o)
	managedFlags(cmd, &o.m)
	openPluginFlag(cmd, &o)
	cmd.Flags().BoolVar(&o.all, "all", false, "take out every installation 'hermes-hooks installs' lists (each as 'uninstall AGENT' would)")
	return cmd
}

func installFlags(cmd *cobra.Command, o *installOptions) {
	f := cmd.Flags()
	f.StringVar(&o.project, "project", "", "the project whose hook file to edit (default: the git repository's root, else the current directory)")
	f.BoolVar(&o.user, "user", false, "edit the user's hook file in the home directory instead")
	f.BoolVar(&o.local, "local", false, "edit the agent's file for this checkout only (Claude Code: .claude/settings.local.json)")
	f.BoolVar(&o.dryRun, "dry-run", false, "print the diff; write nothing")
	f.BoolVar(&o.json, "json", false, "print JSON for scripts")
}

func openPluginFlag(cmd *cobra.Command, o *installOptions) {
	cmd.Flags().StringVar(&o.agent, "agent", agents.OpenPluginAgent, "open-plugin: the agent whose protocol the plugin's hooks speak ('hermes-hooks hook AGENT')")
}

func agentArg(verb string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if all, _ := cmd.Flags().GetBool("all"); all {
			if len(args) != 0 {
				return usageErr("hermes-hooks "+verb+" --all", "--all takes no AGENT: it takes out every installation 'hermes-hooks installs' lists")
			}
			return nil
		}
		if refresh, _ := cmd.Flags().GetBool("refresh"); refresh {
			if len(args) != 0 {
				return usageErr("hermes-hooks "+verb+" --refresh", "--refresh takes no AGENT: it rewrites every installed entry")
			}
			return nil
		}
		if len(args) >= 1 {
			if t, ok := folderTarget(args[0]); ok {
				if len(args) != 2 {
					return usageErr("hermes-hooks "+verb+" "+t.Name+" DIR", "expected the plugin's folder DIR")
				}
				return nil
			}
		}
		if len(args) != 1 {
			return usageErr("hermes-hooks "+verb+" AGENT, AGENT one of "+strings.Join(oneArgInstallables(), ", ")+", or open-plugin DIR", "expected one AGENT")
		}
		return nil
	}
}

func runInstallCmd(a *app, cmd *cobra.Command, args []string, o installOptions) error {
	if err := checkManagedFlags(cmd, o); err != nil {
		return err
	}
	if o.refresh {
		return runRefresh(a, o)
	}
	agent := args[0]
	if o.m.managed {
		return runManaged(a, agent, o)
	}
	if _, ok := folderTarget(agent); ok {
		// Its folder is its root: the root flags are its own to check.
		return pluginTargetVerbs[agent].run(a, args[1], o, false)
	}
	if cmd.Flags().Changed("agent") {
		return usageErr("--agent is for 'install open-plugin DIR'", "--agent given for %s", agent)
	}
	projectSet := cmd.Flags().Changed("project")
	if o.user && projectSet {
		return usageErr("use --project DIR or --user, not both", "both --project and --user given")
	}
	if o.user && o.local {
		return usageErr("use --local (this checkout) or --user, not both", "both --local and --user given")
	}
	return runInstall(a, agent, o, projectSet)
}

func runInstall(a *app, name string, o installOptions, projectSet bool) error {
	if t, ok := pluginTargetVerbs[name]; ok {
		return t.run(a, "", o, projectSet)
	}
	if o.gateway {
		return usageErr("--gateway is Hermes' gateway hook: hermes-hooks install hermes --gateway", "--gateway given for %s", name)
	}
	agent, ok := agents.Lookup(name)
	if !ok {
		// A misspelt agent is a slip on the command line, like an unknown
		// event: exit 2, with the name probably meant.
		known := oneArgInstallables()
		verb := "install"
		if o.uninstall {
			verb = "uninstall"
		}
		hint := "hermes-hooks " + verb + " AGENT, AGENT one of " + strings.Join(known, ", ") + ", or open-plugin DIR"
		if s := suggest.Closest(name, append(known, "open-plugin")); s != "" {
			hint = "did you mean '" + s + "'?"
		}
		return usageErr(hint, "unknown agent %q (known: %s, open-plugin DIR)", name, strings.Join(known, ", "))
	}
	hf := agent.HookFile
	if hf.Project == "" || len(hf.Events) == 0 {
		return errors.New(agent.Title + ": install is not supported yet (its hook file is not known)")
	}
	res, root, err := installTarget(agent.Name, hf.Events, o)
	if err != nil {
		return err
	}
	rel, err := hookFilePath(agent, o)
	if err != nil {
		return err
	}
	path := filepath.Join(root, rel)
	if o.user && agent.HookFile.User != "" {
		// Where the agent reads it: under COPILOT_HOME, when that is set.
		path = install.UserHookFile(agent, root)
	}
	target, err := install.Target(root, path, o.user)
	if err != nil {
		return err
	}
	command, err := hookCommand(agent, o)
	if err != nil {
		return err
	}
	if hf.Layout == agents.Scripts {
		return runInstallScripts(a, agent, target, root, command, o, res)
	}
	state, err := a.Home()
	if err != nil {
		return err
	}
	// The backup goes to the state directory: beside a project's file it
	// showed in git status, and was committed with the folder.
	plan, err := install.Make(agent, target, install.BackupsDir(state), command, o.uninstall)
	if err != nil {
		return err
	}
	plan.Root = root
	if o.uninstall {
		if ok, why := mayRemove(a, agent.Name, target, plan.Path); !ok {
			plan.KeepFile(why)
		}
		plan.OwnDirs = createdDirs(a, agent.Name, target)
	}
	if o.dryRun {
		res.Diff = plan.Diff()
	} else if res.Backup, err = plan.Apply(); err != nil {
		return fmt.Errorf("%s: %w", plan.Path, err)
	} else if plan.Changed || o.uninstall {
		// An install that changed nothing found our entries there already
		// (a teammate's committed file): not this user's installation,
		// so not recorded, and uninstall --all does not take it out.
		rec := agentRecord(agent, root, target, command, o)
		rec.Created, rec.CreatedDirs = !plan.Exists, plan.CreatedDirs
		noteInstall(a, rec, o.uninstall)
	}
	res.File, res.Changed, res.Removed, res.Restored = plan.Path, plan.Changed, plan.Remove, plan.Restored && !plan.Remove
	res.Kept = plan.Kept
	res.RemovedDirs = plan.RemovedDirs
	if !o.uninstall {
		var linesOff func(string) string
		res.SwitchedOff, linesOff = switchedOff(agent, root, plan.Path, o.user)
		for _, ev := range res.Events {
			if why := linesOff(command(ev)); why != "" {
				res.LinesOff = append(res.LinesOff, lineOff{Event: ev, Why: why})
			}
		}
	}
	if o.json {
		return writeJSON(a.Out, res)
	}
	printInstall(a.Out, a.Err, agent, &res)
	return nil
}

// installTarget starts install's report for target and finds the folder
// it writes under (install.Root: --user, --project or the repository).
func installTarget(target string, events []string, o installOptions) (installResult, string, error) {
	res := installResult{Agent: target, Action: "install", DryRun: o.dryRun, Events: events}
	if o.uninstall {
		res.Action = "uninstall"
	}
	root, why, err := install.Root(o.user, o.project)
	if err != nil {
		return res, "", err
	}
	if !o.user {
		res.Project, res.ProjectWhy = root, why
	}
	return res, root, nil
}

// hookFilePath is where agent's hook file is under install's root.
func hookFilePath(agent *agents.Agent, o installOptions) (string, error) {
	hf := agent.HookFile
	switch {
	case o.user:
		return hf.User, nil
	case o.local && hf.Local == "":
		return "", usageErr("--local is for an agent with settings of one checkout ("+localAgents()+")", "--local given for %s", agent.Name)
	case o.local:
		return hf.Local, nil
	}
	return hf.Project, nil
}

// localAgents lists the agents install --local applies to.
func localAgents() string {
	var names []string
	for _, ag := range agents.All() {
		if ag.HookFile.Local != "" {
			names = append(names, ag.Name)
		}
	}
	return strings.Join(names, ", ")
}

// hookCommand is the command line of each event: this binary by its
// absolute path in the user's own file (or with --absolute), else
// hermes-hooks by name from PATH (a project's file is every teammate's).
func hookCommand(agent *agents.Agent, o installOptions) (func(string) string, error) {
	if !o.user && !o.absolute {
		return install.HookCommandOn(runtime.GOOS, agent, "")
	}
	exe, err := install.Executable()
	if err != nil {
		return nil, err
	}
	// The form the agent's shell on this system runs: Gemini CLI's and
	// Qwen Code's PowerShell on Windows.
	return install.HookCommandOn(runtime.GOOS, agent, exe)
}

// switchedOff is the setting of another file that makes agent run none of
// the entries install wrote at path (nil: none), and the one that makes it
// skip a given line (linesOff; "": none): a project's file can turn the
// user's own guards off, so install says so, as doctor does (for a user
// file, in the project around the working directory).
func switchedOff(agent *agents.Agent, root, path string, user bool) (*report.SwitchCheck, func(command string) string) {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil, func(string) string { return "" }
	}
	project := root
	around, aroundOK := projectAround()
	if user {
		// No project around: "", so that only the user's own switch
		// files are read (with home, ~/.claude/settings.local.json would
		// be read as a project's).
		project = around
	}
	// The folder install runs in: an agent run there also reads the
	// switch files of the folders down to it (Codex's .codex/config.toml).
	// Only when root is the project around it: Codex runs another
	// project's hooks (install --project elsewhere, or the repository
	// around a nested one) from that project's root, never reading the
	// working folder's layers for it.
	wd, _ := os.Getwd()
	if !aroundOK || filepath.Clean(around) != filepath.Clean(project) {
		wd = ""
	}
	return report.SwitchedOff(install.Installed{Agent: agent, Root: project, Path: path, User: user}, home, project, wd)
}

// agentRecord is the registry's record of install writing agent's hook
// file (or Cline's folder of scripts) at path under root.
func agentRecord(agent *agents.Agent, root, path string, command func(string) string, o installOptions) install.Record {
	rec := install.Record{Agent: agent.Name, Scope: scopeOf(o.user), Root: root, Local: o.local, Path: path, Kind: install.KindEntries}
	for _, ev := range agent.HookFile.Events {
		if agent.HookFile.Layout == agents.Scripts {
			rec.Kind = install.KindOwned
			rec.Wrote = append(rec.Wrote, filepath.Join(path, ev))
		} else {
			rec.Wrote = append(rec.Wrote, ev+": "+command(ev))
		}
	}
	return rec
}
