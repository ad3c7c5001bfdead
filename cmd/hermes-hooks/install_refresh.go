package main

import (
	"fmt"
	"os"

	"github.com/hermes-hooks/hermes-hooks/install"
)

// runRefresh is `install --refresh`: every hook file of the project, of
// the user and of every other project the registry of installations
// records that holds entries install wrote is installed again, so that
// its command lines are today's (the binary moved or was upgraded, or an
// older version wrote an absolute path into a project's file). Files
// without our entries are left alone; the registry only says which
// projects to look in (each file is found and checked as in this one).
func runRefresh(a *app, o installOptions) error {
	if o.uninstall {
		return usageErr("hermes-hooks install --refresh", "--refresh rewrites entries; it does not uninstall")
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return err
	}
	project, _, err := install.Root(false, o.project)
	if err != nil {
		return err
	}
	found := allInstalled(a, project, home)
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

// allInstalled is every hook file holding entries install wrote: of
// project, of home, and of every other project the registry of
// installations records. The registry only names the projects: each file
// is found and checked for our entries where install writes it.
func allInstalled(a *app, project, home string) []install.Installed {
	found := install.FindInstalled(project, home)
	for _, root := range registeredProjects(a, home, project) {
		for _, in := range install.FindInstalled(root, home) {
			if !in.User {
				found = append(found, in)
			}
		}
	}
	return found
}

// registeredProjects are the project roots of the registry's hook-file
// records other than project, each once: a record that is stale or not
// where install writes is passed over. A registry that cannot be read is
// said on stderr; the refresh of this project and the user's files goes on.
func registeredProjects(a *app, home, project string) []string {
	_, list, err := loadInstallations(a)
	if err != nil {
		fmt.Fprintf(a.Err, "hermes-hooks: the registry of installations could not be read, so only %s and %s are refreshed: %v\n", show(project), show(home), err)
		return nil
	}
	seen := map[string]bool{project: true, home: true}
	var out []string
	for _, in := range list {
		if in.User() || in.Managed() || in.Stale != "" || in.Misplaced != "" || in.Kind != install.KindEntries || seen[in.Root] {
			continue
		}
		seen[in.Root] = true
		out = append(out, in.Root)
	}
	return out
}
