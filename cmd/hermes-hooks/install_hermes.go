package main

import (
	"fmt"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"os"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/clients"
	"github.com/hermes-hooks/hermes-hooks/install"
)

// runInstallHermes writes (or removes) the Hermes plugin in HERMES_HOME.
func runInstallHermes(a *app, o installOptions, projectSet bool) error {
	if projectSet {
		return usageErr("the Hermes plugin goes into $HERMES_HOME/plugins; --project does not apply", "--project given for hermes")
	}
	home, err := a.Home()
	if err != nil {
		return &exitError{Code: 1, Msg: err.Error()}
	}
	plan, err := install.MakeHermesPlugin(home, clients.HermesPackage(), o.uninstall)
	if err != nil {
		return &exitError{Code: 1, Msg: err.Error()}
	}
	action := "install"
	if o.uninstall {
		action = "uninstall"
	}
	var diff string
	if o.dryRun {
		diff = plan.Diff()
	} else if err := plan.Apply(); err != nil {
		return &exitError{Code: 1, Msg: fmt.Sprintf("%s: %v", plan.Dir, err)}
	}
	if o.json {
		files := []string{}
		for _, f := range plan.Files {
			if f.Changed {
				files = append(files, f.Path)
			}
		}
		return writeJSON(a.Out, map[string]any{"agent": "hermes", "dir": plan.Dir, "action": action,
			"changed": plan.Changed, "dry_run": o.dryRun, "files": files, "diff": diff})
	}
	dir := show(plan.Dir)
	switch {
	case o.dryRun && !plan.Changed:
		fmt.Fprintf(a.Out, "%s: nothing to change (dry run)\n", dir)
	case o.dryRun:
		printDiff(a, diff)
		fmt.Fprintf(a.Err, "dry run: %s not written\n", dir)
	case !plan.Changed && o.uninstall:
		fmt.Fprintf(a.Out, "%s: the Hermes plugin is not installed there; nothing changed\n", dir)
	case !plan.Changed:
		fmt.Fprintf(a.Out, "%s: the Hermes plugin is already installed; nothing changed\n", dir)
	case o.uninstall:
		fmt.Fprintf(a.Out, "removed the Hermes plugin from %s\n", dir)
	default:
		fmt.Fprintf(a.Out, "%s: the Hermes plugin is installed (%d files); enable it in Hermes: hermes plugins enable hermes-hooks\n", dir, len(plan.Files))
		if hooks, _ := hermesShellHooks(home); hooks > 0 {
			fmt.Fprintf(a.Out, "Note: %s also declares %s that Hermes runs itself; with the plugin they would run twice. Move the hooks: block into a file of its own, leave hooks: {} in config.yaml, and point the plugin at it (HERMES_HOOKS_CONFIG): see README, Hermes plugin.\n",
				show(filepath.Join(home, "config.yaml")), count(hooks, "shell hook", "shell hooks"))
		}
	}
	return nil
}

// hermesShellHooks counts the hooks Hermes' own config declares (its
// shell-hook layer runs them); 0 when there is no readable config.
func hermesShellHooks(home string) (int, error) {
	path := filepath.Join(home, "config.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	cfg, err := hookconfig.ParseConfig(data, path)
	if err != nil {
		return 0, err
	}
	return len(cfg.Entries), nil
}
