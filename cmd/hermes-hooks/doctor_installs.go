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
func installedFiles(a *app) (files []install.Installed, home string) {
	home, _ = os.UserHomeDir()
	project, _, err := install.Root(false, "")
	if err != nil {
		project = home
	}
	return allInstalled(a, project, home), home
}

// checkInstalls proves each installed entry fires, and reads journalPath
// for each file's last event.
func checkInstalls(a *app, o doctorOptions, journalPath string) []report.InstallCheck {
	files, home := installedFiles(a)
	if len(files) == 0 {
		return nil
	}
	return report.CheckInstalls(context.Background(), files, report.ProbeOptions{
		NoRun: o.noRun, Home: home, Journal: journalPath,
	})
}
