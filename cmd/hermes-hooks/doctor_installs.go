package main

import (
	"context"
	"os"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/report"
)

// installedFiles is every hook file install wrote that doctor proves: the
// project's around the working directory, the user's, and those of every
// other project the registry of installations records, as install
// --refresh finds them.
func installedFiles(a *app) (files []install.Installed, home, project string) {
	home, _ = os.UserHomeDir()
	project, _, err := install.Root(false, "")
	if err != nil {
		project = home
	}
	return allInstalled(a, project, home), home, project
}

// checkInstalls proves each installed entry fires, and reads journalPath
// for each file's last event.
func checkInstalls(a *app, o doctorOptions, journalPath string) []report.InstallCheck {
	files, home, project := installedFiles(a)
	if len(files) == 0 {
		return nil
	}
	return report.CheckInstalls(context.Background(), files, report.ProbeOptions{
		NoRun: o.noRun, Home: home, Journal: journalPath, Project: project,
	})
}

// switchedOff is the setting of another file that makes agent run none of
// the entries install wrote at path (nil: none): a project's file can turn
// the user's own guards off, so install says so, as doctor does.
func switchedOff(agent *agents.Agent, root, path string, user bool) *report.SwitchCheck {
	home, err := os.UserHomeDir()
	if err != nil {
		return nil
	}
	project := root
	if user {
		if project, _, err = install.Root(false, ""); err != nil {
			project = ""
		}
	}
	return report.SwitchedOff(install.Installed{Agent: agent, Root: project, Path: path, User: user}, home, project)
}
