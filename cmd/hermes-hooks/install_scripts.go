package main

import (
	"fmt"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/install"
)

// runInstallScripts is install for an agent that runs one executable per
// event from a folder (agents.Scripts: Cline): our scripts written there,
// or removed with --uninstall.
func runInstallScripts(a *app, agent *agents.Agent, dir, root string, command func(string) string, o installOptions, res installResult) error {
	plan, err := install.MakeScripts(agent, dir, command, o.uninstall)
	if err != nil {
		return err
	}
	plan.Root = root
	if o.uninstall {
		plan.OwnDirs = createdDirs(a, agent.Name, dir)
	}
	if res.KeptFiles = plan.KeepTracked(); len(res.KeptFiles) > 0 {
		res.Kept = install.KeptTracked
	}
	res.File, res.Changed = plan.Dir, plan.Changed
	if o.dryRun {
		res.Diff = plan.Diff()
	} else if err := plan.Apply(); err != nil {
		return fmt.Errorf("%s: %w", plan.Dir, err)
	} else if plan.Changed || o.uninstall {
		// As runInstall: scripts already there are not this install's.
		rec := agentRecord(agent, root, dir, command, o)
		rec.CreatedDirs = plan.CreatedDirs
		noteInstall(a, rec, o.uninstall)
	}
	res.RemovedDirs = plan.RemovedDirs
	if o.json {
		return writeJSON(a.Out, res)
	}
	printInstall(a.Out, a.Err, agent, &res)
	return nil
}
