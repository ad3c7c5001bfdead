package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/install"
)

// openPluginTarget is the install target of an Open Plugins plugin
// (hooks/hooks.json under a plugin root, as Goose loads them).
const openPluginTarget = install.TargetOpenPlugin

// runInstallOpenPlugin writes (or, with --uninstall, removes) the Open
// Plugins plugin in dir whose hooks run `hermes-hooks hook AGENT EVENT`.
func runInstallOpenPlugin(a *app, dir string, o installOptions) error {
	if o.user || o.project != "" || o.gateway {
		return usageErr("hermes-hooks "+openPluginTarget+" DIR: DIR is the plugin's folder; --project, --user and --gateway do not apply", "flag given for "+openPluginTarget)
	}
	agent, ok := agents.Lookup(o.agent)
	if !ok {
		return fmt.Errorf("--agent: unknown agent %q (known: %s)", o.agent, strings.Join(agents.Names(), ", "))
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	// A plugin folder is a project's (.agents/plugins/…), committed: its
	// hooks run hermes-hooks by name from PATH, unless --absolute.
	exe := ""
	if o.absolute {
		if exe, err = install.Executable(); err != nil {
			return err
		}
	}
	command := install.HookCommand(agent, exe)
	plan, err := install.MakeOpenPlugin(abs, agent, command, o.uninstall)
	if err != nil {
		return err
	}
	action := "install"
	if o.uninstall {
		action = "uninstall"
	}
	var tracked []string
	if o.uninstall {
		tracked = plan.KeepTracked()
	}
	var diff string
	if o.dryRun {
		diff = plan.Diff()
	} else if err := plan.Apply(); err != nil {
		return err
	} else if plan.Changed || o.uninstall {
		// As runInstall: files already there are not this install's.
		noteInstall(a, install.Record{Agent: install.TargetOpenPlugin, Scope: install.ScopeProject, Root: abs, Path: abs, PluginAgent: agent.Name,
			Kind: install.KindOwned, Wrote: []string{filepath.Join(abs, "plugin.json"), filepath.Join(abs, "hooks", "hooks.json")}}, o.uninstall)
	}
	if o.json {
		files := []string{}
		for _, f := range plan.Files {
			if f.Changed {
				files = append(files, f.Path)
			}
		}
		return writeJSON(a.Out, map[string]any{"agent": agent.Name, "target": openPluginTarget, "dir": plan.Dir,
			"action": action, "changed": plan.Changed, "dry_run": o.dryRun, "files": files, "kept": plan.Kept(), "events": agents.OpenPluginShape(agent).HookFile.Events, "diff": diff})
	}
	d := show(plan.Dir)
	printPluginInstall(a.Out, a.Err, pluginInstall{Where: plan.Dir, DryRun: o.dryRun, Changed: plan.Changed, Uninstall: o.uninstall, Diff: diff,
		Removed: "removed the hermes-hooks plugin from " + d + " (plugin.json, hooks/hooks.json)", Kept: plan.Kept(), Tracked: tracked,
		Done: []string{fmt.Sprintf("%s: plugin hermes-hooks written (plugin.json, hooks/hooks.json); its hooks run 'hermes-hooks hook %s' for %s",
			d, agent.Name, strings.Join(agents.OpenPluginShape(agent).HookFile.Events, ", "))}})
	return nil
}
