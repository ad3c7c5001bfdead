package main

import (
	"github.com/hermes-hooks/hermes-hooks/clients"
	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/report"
)

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
	h, err := install.MakeHermes(home, clients.HermesPackage(), o.gateway, o.uninstall)
	if err != nil {
		return &exitError{Code: 1, Msg: err.Error()}
	}
	r := report.HermesInstall{Plan: h, Uninstall: o.uninstall, DryRun: o.dryRun}
	if o.dryRun {
		r.Diff = h.Diff()
	} else if r.Backup, err = h.Apply(o.uninstall); err != nil {
		return &exitError{Code: 1, Msg: err.Error()}
	}
	if o.json {
		return writeJSON(a.Out, r.JSON())
	}
	r.ShellHooks, _ = install.HermesShellHooks(home)
	report.PrintInstallHermes(a.Out, a.Err, &r)
	return nil
}
