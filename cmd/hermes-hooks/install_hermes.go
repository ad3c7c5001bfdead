package main

import (
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/clients"
	"github.com/hermes-hooks/hermes-hooks/install"
)

// runInstallHermes writes (or removes) the Hermes plugin in HERMES_HOME,
// enables it in config.yaml, and with --gateway writes the gateway hook.
func runInstallHermes(a *app, o installOptions, projectSet bool) error {
	if projectSet {
		return usageErr("the Hermes plugin goes into $HERMES_HOME/plugins; --project does not apply", "--project given for hermes")
	}
	home, err := a.Home()
	if err != nil {
		return err
	}
	h, err := install.MakeHermes(home, clients.HermesPackage(), o.gateway, o.uninstall)
	if err != nil {
		return err
	}
	r := hermesInstall{Plan: h, Uninstall: o.uninstall, DryRun: o.dryRun}
	if o.dryRun {
		r.Diff = h.Diff()
	} else if r.Backup, err = h.Apply(o.uninstall); err != nil {
		return err
	} else {
		noteInstall(a, hermesRecord(home, h), o.uninstall)
	}
	if o.json {
		return writeJSON(a.Out, r.JSON())
	}
	r.ShellHooks, _ = install.HermesShellHooks(home)
	printInstallHermes(a.Out, a.Err, &r)
	return nil
}

// hermesRecord is the registry's record of `install hermes`: the plugin's
// folder (and the gateway hook's), and the plugin's entry in config.yaml.
func hermesRecord(home string, h *install.Hermes) install.Record {
	if abs, err := filepath.Abs(home); err == nil {
		home = abs
	}
	rec := install.Record{Agent: install.TargetHermes, Scope: install.ScopeUser, Root: home,
		Path: filepath.Join(home, filepath.FromSlash(install.HermesPluginDir)), Kind: install.KindOwned}
	for _, d := range h.Dirs() {
		rec.Wrote = append(rec.Wrote, d.Dir+string(filepath.Separator))
	}
	rec.Wrote = append(rec.Wrote, h.Enable.Path+": plugins.enabled: "+install.HermesPluginName)
	return rec
}
