package main

import (
	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/install"
)

// openCodeTarget is the install target of OpenCode, which runs no
// commands of a hook file, only JavaScript plugins: install writes one, a
// shim that runs 'hermes-hooks hook' in Claude Code's protocol.
const openCodeTarget = install.TargetOpenCode

// runInstallOpenCode writes (or, with --uninstall, removes) the OpenCode
// plugin in the project's .opencode/plugins (--user: the home directory's
// .config/opencode/plugins).
func runInstallOpenCode(a *app, o installOptions) error {
	if o.gateway {
		return usageErr("--gateway is Hermes' gateway hook: hermes-hooks install hermes --gateway", "--gateway given for %s", openCodeTarget)
	}
	res, root, err := installTarget(openCodeTarget, []string{"tool.execute.before", "tool.execute.after"}, o)
	if err != nil {
		return err
	}
	// A project's plugin is committed too: it runs hermes-hooks by name
	// from PATH (spawnSync finds it there; where it is missing the plugin
	// stops the call, saying it cannot run hermes-hooks).
	exe := agents.ProgramName
	if o.user || o.absolute {
		if exe, err = install.Executable(); err != nil {
			return err
		}
	}
	path, err := install.Target(root, install.OpenCodePath(root, o.user), o.user)
	if err != nil {
		return err
	}
	plan, err := install.MakeOpenCode(path, exe, o.uninstall)
	if err != nil {
		return err
	}
	var tracked []string
	if o.uninstall {
		tracked = plan.KeepTracked()
	}
	res.File, res.Changed = plan.Files[0].Path, plan.Changed
	if o.dryRun {
		res.Diff = plan.Diff()
	} else if err := plan.Apply(); err != nil {
		return err
	} else if plan.Changed || o.uninstall {
		// As runInstall: files already there are not this install's.
		noteInstall(a, install.Record{Agent: install.TargetOpenCode, Scope: scopeOf(o.user), Root: root,
			Path: path, Kind: install.KindOwned, Wrote: []string{path}}, o.uninstall)
	}
	res.Backup = plan.Files[0].Kept
	if o.json {
		return writeJSON(a.Out, res)
	}
	printPluginInstall(a.Out, a.Err, pluginInstall{Where: res.File, DryRun: o.dryRun, Changed: res.Changed, Uninstall: o.uninstall, Diff: res.Diff,
		Removed: "removed " + show(res.File), Kept: plan.Kept(), Tracked: tracked,
		Done: []string{show(res.File) + ": OpenCode now runs hermes-hooks (Claude Code's PreToolUse and PostToolUse) around every tool call"}})
	return nil
}
