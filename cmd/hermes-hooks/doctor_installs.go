package main

import (
	"context"
	"os"

	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/report"
)

// installedFiles is every hook file install wrote that doctor proves: the
// project's around the working directory, the user's, and those of every
// other project the registry of installations records, as install
// --refresh finds them.
func installedFiles(a *app) (files []install.Installed, home, project string) {
	home, _ = os.UserHomeDir()
	project, ok := projectAround()
	if !ok {
		// doctor takes the home folder for it (the user's own switch
		// files then, which are read once as the user's); install's
		// switchedOff reads no project's then.
		project = home
	}
	return allInstalled(a, project, home), home, project
}

// projectAround is the project around the working directory, where a
// user file's hooks run now; ok false when there is none (the working
// directory cannot be found: it was removed).
func projectAround() (project string, ok bool) {
	project, _, err := install.Root(false, "")
	if err != nil {
		return "", false
	}
	return project, true
}

// checkInstalls proves each installed entry fires, and reads journalPath
// for each file's last event.
func checkInstalls(a *app, o doctorOptions, journalPath string) []report.InstallCheck {
	files, home, project := installedFiles(a)
	if len(files) == 0 {
		return nil
	}
	// An agent run where doctor runs reads switch files in the folders
	// down to it too (Codex's .codex/config.toml in each).
	wd, _ := os.Getwd()
	return report.CheckInstalls(context.Background(), files, report.ProbeOptions{
		NoRun: o.noRun, Home: home, Journal: journalPath, Project: project, WorkDir: wd,
	})
}
