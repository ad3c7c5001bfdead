package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/install"
)

// managedOptions are install's and uninstall's --managed flags.
type managedOptions struct {
	managed bool   // the agent's admin settings instead of a user's or a project's file
	only    bool   // and the agent's managed-hooks-only key
	root    string // a stand-in for the system's root (tests, images)
	dropIn  bool   // the agent's drop-in folder instead of its file
	binary  string // the program the entries run (default: this one)
	force   bool   // write a binary path a user could replace
}

const managedHelp = `
--managed writes AGENT's admin settings instead, which the agent reads for
every user of the machine and no user can edit or switch off (run it as root):
Claude Code's managed-settings.json (--drop-in: a file of its own in
managed-settings.d/, Claude Code 2.1.83 and later), Codex's requirements.toml
(whose hooks Codex runs without asking each user to trust them), Copilot CLI's
policy.d/hermes-hooks.json, Gemini CLI's system settings.json. --managed-only
also sets the agent's own switch that runs managed hooks only (Claude Code's
allowManagedHooksOnly, Codex's allow_managed_hooks_only). The entries run this
binary by its absolute path, which must be one only root can replace (it and
every folder above it owned by root and writable by no one else): a program a
user could replace would let that user decide what every user's agent runs.
--binary PATH names another; --force writes a path that fails the check.
--managed-root DIR writes under DIR as if it were / (for images and tests).
'uninstall AGENT --managed' takes the entries out again, the file back byte
for byte when nothing else changed in it.`

func managedFlags(cmd *cobra.Command, m *managedOptions) {
	f := cmd.Flags()
	f.BoolVar(&m.managed, "managed", false, "the agent's admin (managed) settings for every user of the machine: "+strings.Join(agents.ManagedNames(), ", "))
	f.BoolVar(&m.only, "managed-only", false, "with --managed: the agent runs managed hooks only (uninstall: take that setting out too)")
	f.StringVar(&m.root, "managed-root", "", "with --managed: write under DIR as if it were the system's root")
	f.BoolVar(&m.dropIn, "drop-in", false, "with --managed: a file of hermes-hooks' own in the agent's drop-in folder (Claude Code's managed-settings.d)")
	f.StringVar(&m.binary, "binary", "", "with --managed: the hermes-hooks program the entries run (default: this one)")
	f.BoolVar(&m.force, "force", false, "with --managed: write a program path that a user other than root could replace")
}

// checkManagedFlags refuses the flags that need --managed without it, and
// the ones that mean another file with it.
func checkManagedFlags(cmd *cobra.Command, o installOptions) error {
	const hint = "hermes-hooks install AGENT --managed [--managed-only] [--drop-in] [--binary PATH] [--managed-root DIR]"
	if !o.m.managed {
		for _, f := range []string{"managed-only", "managed-root", "drop-in", "binary", "force"} {
			if cmd.Flags().Changed(f) {
				return usageErr(hint, "--%s is for --managed", f)
			}
		}
		return nil
	}
	for _, f := range []string{"project", "user", "local", "absolute", "refresh", "gateway", "agent"} {
		if cmd.Flag(f) != nil && cmd.Flags().Changed(f) {
			return usageErr(hint, "--%s does not apply to --managed: it writes the agent's admin settings", f)
		}
	}
	return nil
}

// runManaged is install (or uninstall) AGENT --managed.
func runManaged(a *app, name string, o installOptions) error {
	agent, ok := agents.Lookup(name)
	if !ok || agent.ManagedLayer() == nil {
		return usageErr("hermes-hooks install AGENT --managed, AGENT one of "+strings.Join(agents.ManagedNames(), ", "),
			"%s has no managed (admin) settings that install knows", name)
	}
	m := agent.ManagedLayer()
	switch {
	case o.m.dropIn && m.File(runtime.GOOS, true) == "":
		return usageErr("--drop-in is for an agent with a drop-in folder", "%s has no drop-in folder for managed settings", agent.Title)
	case o.m.only && m.OnlyKey == "":
		return usageErr("--managed-only is for Claude Code and Codex", "%s has no setting that runs managed hooks only: with its managed hooks installed, the user's run too", agent.Title)
	}
	root, err := managedRoot(o.m.root)
	if err != nil {
		return err
	}
	path, err := install.ManagedPath(agent, root, o.m.dropIn)
	if err != nil {
		return err
	}
	if err := managedTarget(a, path); err != nil {
		return err
	}
	command, err := managedCommand(a, agent, o)
	if err != nil {
		return err
	}
	plan, err := install.MakeManaged(agent, path, command, o.uninstall, o.m.only)
	if err != nil {
		return err
	}
	res, _, _ := installTarget(agent.Name, agent.HookFile.Events, installOptions{uninstall: o.uninstall, dryRun: o.dryRun, user: true})
	if o.dryRun {
		res.Diff = plan.Diff()
	} else if res.Backup, err = plan.Apply(); errors.Is(err, fs.ErrPermission) {
		return withHint(fmt.Errorf("%s: %w", plan.Path, err), "managed settings are the administrator's: run it as root (sudo "+show(os.Args[0])+" …)")
	} else if err != nil {
		return fmt.Errorf("%s: %w", plan.Path, err)
	} else {
		rec := install.Record{Agent: agent.Name, Scope: install.ScopeManaged, Root: root, DropIn: o.m.dropIn, Path: path, Kind: install.KindEntries}
		for _, ev := range agent.HookFile.Events {
			rec.Wrote = append(rec.Wrote, ev+": "+command(ev))
		}
		noteInstall(a, rec, o.uninstall)
	}
	res.File, res.Changed, res.Removed, res.Restored = plan.Path, plan.Changed, plan.Remove, plan.Restored && !plan.Remove
	res.Managed = true
	if o.json {
		return writeJSON(a.Out, res)
	}
	printInstall(a.Out, a.Err, agent, &res)
	return nil
}

// managedRoot is --managed-root made absolute, else the system's root.
func managedRoot(dir string) (string, error) {
	if dir == "" {
		if runtime.GOOS == "windows" {
			drive := os.Getenv("SystemDrive")
			if drive == "" {
				drive = "C:"
			}
			return drive + `\`, nil
		}
		return "/", nil
	}
	return filepath.Abs(dir)
}

// managedTarget refuses a managed file that is a symbolic link: install
// would write wherever it leads (a file a user can edit, say), and the
// agent reads the administrator's settings from there. A managed file
// others may write is said: the agent's own rule may ignore it (Copilot
// CLI reads no policy file writable by its group or everyone).
func managedTarget(a *app, path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case fi.Mode()&fs.ModeSymlink != 0:
		dest, _ := os.Readlink(path)
		return fmt.Errorf("%s: a symbolic link (to %s); not changed: install writes a managed file only where the agent reads it, not through a link (replace the link by the file it names, or edit it by hand)", path, dest)
	case !fi.Mode().IsRegular():
		return fmt.Errorf("%s: not a regular file; not changed", path)
	case fi.Mode().Perm()&0o022 != 0:
		fmt.Fprintf(a.Err, "hermes-hooks: warning: %s is writable by users other than its owner (mode %v): any of them can change what the agent enforces; chmod go-w it\n", show(path), fi.Mode().Perm())
	}
	return nil
}

// managedCommand is each event's command line in a managed file: the
// binary by its absolute path (the form install writes into a user's
// file), once install has checked that only root can replace it. An
// uninstall checks nothing: it takes out every entry of ours, whatever
// program it runs.
func managedCommand(a *app, agent *agents.Agent, o installOptions) (func(string) string, error) {
	exe := o.m.binary
	if exe == "" {
		var err error
		if exe, err = install.Executable(); err != nil {
			return nil, err
		}
	}
	exe, err := filepath.Abs(exe)
	if err != nil {
		return nil, err
	}
	if !o.uninstall {
		if err := install.SystemBinary(exe); errors.Is(err, install.ErrNotChecked) {
			fmt.Fprintf(a.Err, "hermes-hooks: warning: %s: %v\n", show(exe), err)
		} else if err != nil && !o.m.force {
			return nil, withHint(fmt.Errorf("%v; not changed: a managed hook runs for every user, so a program another user can replace would let that user decide what every agent on this machine runs", err),
				"install hermes-hooks where only root can write (as root: make install PREFIX=/usr/local) and run that one, or name it with --binary PATH; --force writes this path anyway")
		} else if err != nil {
			fmt.Fprintf(a.Err, "hermes-hooks: warning: --force: %v; whoever can replace it decides what every user's agent runs\n", err)
		}
	}
	return install.HookCommandOn(runtime.GOOS, agent, exe)
}
