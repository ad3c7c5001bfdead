package main

import (
	"fmt"
	"os"

	"github.com/hermes-hooks/hermes-hooks/install"
)

// runRefresh is `install --refresh`: every hook file of the project and of
// the user that holds entries install wrote is installed again, so that
// its command lines are today's (the binary moved or was upgraded, or an
// older version wrote an absolute path into a project's file). Files
// without our entries are left alone.
func runRefresh(a *app, o installOptions) error {
	if o.uninstall {
		return usageErr("hermes-hooks install --refresh", "--refresh rewrites entries; it does not uninstall")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return &exitError{Code: 1, Msg: err.Error()}
	}
	project, _, err := install.Root(false, o.project)
	if err != nil {
		return &exitError{Code: 1, Msg: err.Error()}
	}
	found := install.FindInstalled(project, home)
	for _, in := range found {
		each := o
		each.refresh, each.user, each.local, each.project = false, in.User, in.Local, in.Root
		if err := runInstall(a, in.Agent.Name, each, !in.User); err != nil {
			return err
		}
	}
	if len(found) == 0 {
		fmt.Fprintf(a.Out, "no hook file of %s or of %s holds entries of hermes-hooks; nothing to refresh\n", show(project), show(home))
	}
	return nil
}
