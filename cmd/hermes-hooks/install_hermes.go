package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/report"

	"github.com/hermes-hooks/hermes-hooks/clients"
	"github.com/hermes-hooks/hermes-hooks/install"
)

// hermesInstall is what `install hermes` writes: the plugin, the gateway
// hook (--gateway; uninstall always takes it out), and the plugin's entry
// in config.yaml's plugins.enabled.
type hermesInstall struct {
	plugin, gateway *install.PluginPlan
	enable          *install.Plan
	note            string // what still keeps Hermes from loading the plugin
}

func (h *hermesInstall) dirs() []*install.PluginPlan {
	if h.gateway == nil {
		return []*install.PluginPlan{h.plugin}
	}
	return []*install.PluginPlan{h.plugin, h.gateway}
}

func (h *hermesInstall) changed() bool {
	return h.plugin.Changed || h.gateway != nil && h.gateway.Changed || h.enable.Changed
}

func (h *hermesInstall) diff() string {
	var b strings.Builder
	for _, d := range h.dirs() {
		b.WriteString(d.Diff())
	}
	b.WriteString(h.enable.Diff())
	return b.String()
}

// apply writes the folders first and the config last: Hermes is never told
// to load a plugin that is not there yet. Uninstall goes the other way.
func (h *hermesInstall) apply(uninstall bool) (backup string, err error) {
	if uninstall {
		if _, err := h.enable.Apply(); err != nil {
			return "", fmt.Errorf("%s: %v", h.enable.Path, err)
		}
	}
	for _, d := range h.dirs() {
		if err := d.Apply(); err != nil {
			return "", fmt.Errorf("%s: %v", d.Dir, err)
		}
	}
	if !uninstall {
		if backup, err = h.enable.Apply(); err != nil {
			return "", fmt.Errorf("%s: %v", h.enable.Path, err)
		}
	}
	return backup, nil
}

func planHermes(home string, o installOptions) (*hermesInstall, error) {
	h := &hermesInstall{}
	var err error
	if h.plugin, err = install.MakeHermesPlugin(home, clients.HermesPackage(), o.uninstall); err != nil {
		return nil, err
	}
	if o.gateway || o.uninstall {
		if h.gateway, err = install.MakeHermesGateway(home, clients.HermesPackage(), o.uninstall); err != nil {
			return nil, err
		}
	}
	if h.enable, h.note, err = install.MakeHermesEnable(home, o.uninstall); err != nil {
		return nil, err
	}
	return h, nil
}

// runInstallHermes writes (or removes) the Hermes plugin in HERMES_HOME,
// enables it in config.yaml, and with --gateway writes the gateway hook.
func runInstallHermes(a *app, o installOptions, projectSet bool) error {
	if projectSet {
		return usageErr("the Hermes plugin goes into $HERMES_HOME/plugins; --project does not apply", "--project given for hermes")
	}
	home, err := a.Home()
	if err != nil {
		return &exitError{Code: 1, Msg: err.Error()}
	}
	h, err := planHermes(home, o)
	if err != nil {
		return &exitError{Code: 1, Msg: err.Error()}
	}
	action := "install"
	if o.uninstall {
		action = "uninstall"
	}
	var diff, backup string
	if o.dryRun {
		diff = h.diff()
	} else if backup, err = h.apply(o.uninstall); err != nil {
		return &exitError{Code: 1, Msg: err.Error()}
	}
	if o.json {
		files := []string{}
		for _, d := range h.dirs() {
			for _, f := range d.Files {
				if f.Changed {
					files = append(files, f.Path)
				}
			}
		}
		if h.enable.Changed {
			files = append(files, h.enable.Path)
		}
		out := map[string]any{"agent": "hermes", "dir": h.plugin.Dir, "action": action, "changed": h.changed(),
			"dry_run": o.dryRun, "files": files, "diff": diff, "config": h.enable.Path, "backup": backup}
		if h.gateway != nil {
			out["gateway_dir"] = h.gateway.Dir
		}
		if h.note != "" {
			out["note"] = h.note
		}
		return writeJSON(a.Out, out)
	}
	printInstallHermes(a, h, o, home, diff, backup)
	return nil
}

func printInstallHermes(a *app, h *hermesInstall, o installOptions, home, diff, backup string) {
	dir, cfg := show(h.plugin.Dir), show(h.enable.Path)
	switch {
	case o.dryRun && !h.changed():
		fmt.Fprintf(a.Out, "%s: nothing to change (dry run)\n", dir)
	case o.dryRun:
		printDiff(a, diff)
		fmt.Fprintf(a.Err, "dry run: %s and %s not written\n", dir, cfg)
	case !h.changed() && o.uninstall:
		fmt.Fprintf(a.Out, "%s: the Hermes plugin is not installed there; nothing changed\n", dir)
	case !h.changed():
		fmt.Fprintf(a.Out, "%s: the Hermes plugin is already installed and enabled; nothing changed\n", dir)
	case o.uninstall:
		fmt.Fprintf(a.Out, "removed the Hermes plugin from %s\n", dir)
		if h.gateway.Changed {
			fmt.Fprintf(a.Out, "removed the gateway hook from %s\n", show(h.gateway.Dir))
		}
		if h.enable.Changed {
			how := "took hermes-hooks out of plugins.enabled"
			if h.enable.Restored {
				how = "the file is back as it was before install"
			}
			fmt.Fprintf(a.Out, "%s: %s\n", cfg, how)
		}
	default:
		fmt.Fprintf(a.Out, "%s: the Hermes plugin is installed (%d files)\n", dir, len(h.plugin.Files))
		if h.enable.Changed {
			fmt.Fprintf(a.Out, "%s: enabled it (plugins.enabled); Hermes loads it when it next starts\n", cfg)
		}
		if h.gateway != nil {
			fmt.Fprintf(a.Out, "%s: the gateway hook is installed: the messaging gateway hands its events to hermes-hooks when it next starts\n", show(h.gateway.Dir))
		}
		if hooks, _ := hermesShellHooks(home); hooks > 0 {
			fmt.Fprintf(a.Out, "Note: %s also declares %s that Hermes runs itself; with the plugin they would run twice. Move the hooks: block into a file of its own, leave hooks: {} in config.yaml, and point the plugin at it (HERMES_HOOKS_CONFIG): see README, Hermes plugin.\n",
				cfg, report.Count(hooks, "shell hook", "shell hooks"))
		}
	}
	if h.note != "" {
		fmt.Fprintf(a.Out, "Note: %s: %s\n", cfg, h.note)
	}
	if backup != "" && !o.dryRun {
		fmt.Fprintf(a.Out, "previous file kept as %s\n", show(backup))
	}
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
	n := 0
	for _, e := range cfg.Entries {
		if e.Event.Hermes { // Hermes warns about the others and runs none of them
			n++
		}
	}
	return n, nil
}
