package main

import (
	"context"
	"os"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
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
// for each file's last event; cfg is the config doctor read, whose guards
// each agent installed here must call hermes-hooks for.
func checkInstalls(a *app, o doctorOptions, journalPath string, cfg *hookconfig.Config) []report.InstallCheck {
	files, home, project := installedFiles(a)
	gone, more := installedOnce(a, files, home, project)
	files = append(files, more...)
	if len(files) == 0 && len(gone) == 0 {
		return nil
	}
	// An agent run where doctor runs reads switch files in the folders
	// down to it too (Codex's .codex/config.toml in each).
	wd, _ := os.Getwd()
	return report.CheckInstalls(context.Background(), files, report.ProbeOptions{
		NoRun: o.noRun, Home: home, Journal: journalPath, Project: project, WorkDir: wd,
		Guards: report.GuardsOf(cfg), Gone: gone,
	})
}

// installedOnce are the hook files of project and of the user that an
// agent was installed in beyond those that hold entries of ours (found):
// a file the registry of installations records that is gone (gone) or
// holds no entry of ours now, and a project's file with a line that calls
// hermes-hooks in a form install does not write (a teammate's clone of a
// committed file edited so: report.HoldsInstallLike). An agent installed
// nowhere is asked nothing: whoever uses only dispatch or serve has no
// agent file to fix.
func installedOnce(a *app, found []install.Installed, home, project string) (gone, more []install.Installed) {
	have := map[string]bool{}
	for _, in := range found {
		have[in.Path] = true
	}
	// A registry that cannot be read was said already (allInstalled).
	_, list, _ := loadInstallations(a)
	for _, rec := range list {
		ag, ok := agents.Lookup(rec.Agent)
		if !ok || rec.Stale == "" || rec.Misplaced != "" || rec.Kind != install.KindEntries || rec.Managed() ||
			have[rec.Path] || !rec.User() && (rec.Root != project || project == home) {
			continue
		}
		have[rec.Path] = true
		in := install.Installed{Agent: ag, Root: rec.Root, Path: rec.Path, User: rec.User(), Local: rec.Local}
		if rec.Stale == install.StaleGone {
			gone = append(gone, in)
		} else {
			more = append(more, in)
		}
	}
	if project == home {
		return gone, more
	}
	for _, ag := range agents.All() {
		hf := ag.HookFile
		for _, rel := range []struct {
			path  string
			local bool
		}{{hf.Project, false}, {hf.Local, true}} {
			in := install.Installed{Agent: ag, Root: project, Path: filepath.Join(project, rel.path), Local: rel.local}
			if rel.path == "" || len(hf.Events) == 0 || have[in.Path] || !report.HoldsInstallLike(in) {
				continue
			}
			have[in.Path] = true
			more = append(more, in)
		}
	}
	return gone, more
}
