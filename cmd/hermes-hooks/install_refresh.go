package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/install"
)

// runRefresh is `install --refresh`: every agent's hook file that holds
// entries install wrote — the project's (and its checkout-only file) and
// the user's — is installed again, so that its command lines are today's
// (the binary moved or was upgraded, an older version wrote an absolute
// path into a project's file). Files without our entries are left alone.
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
	found := 0
	for _, ag := range agents.All() {
		hf := ag.HookFile
		if hf.Project == "" || len(hf.Events) == 0 {
			continue
		}
		for _, where := range []struct {
			root, rel   string
			user, local bool
		}{{project, hf.Project, false, false}, {project, hf.Local, false, true}, {home, hf.User, true, false}} {
			// In the home directory itself, the project's file is the
			// user's: it is refreshed once, as the user's.
			if where.rel == "" || !where.user && project == home || !install.HasOwn(ag, filepath.Join(where.root, where.rel)) {
				continue
			}
			found++
			each := o
			each.refresh, each.user, each.local = false, where.user, where.local
			each.project = ""
			if !where.user {
				each.project = project
			}
			if err := runInstall(a, ag.Name, each, !where.user); err != nil {
				return err
			}
		}
	}
	if found == 0 {
		fmt.Fprintf(a.Out, "no hook file of %s or of %s holds entries of hermes-hooks; nothing to refresh\n", show(project), show(home))
	}
	return nil
}
