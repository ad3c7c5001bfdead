package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/report"
)

// installResult is what `install AGENT` (and uninstall) did: --json's
// output, and what printInstall says.
type installResult struct {
	Agent       string   `json:"agent"`
	Project     string   `json:"project,omitempty"`
	File        string   `json:"file"`
	Action      string   `json:"action"` // install or uninstall
	Changed     bool     `json:"changed"`
	DryRun      bool     `json:"dry_run"`
	Backup      string   `json:"backup,omitempty"`
	Restored    bool     `json:"restored,omitempty"`
	Removed     bool     `json:"file_removed,omitempty"`
	RemovedDirs []string `json:"removed_dirs,omitempty"`
	// Kept: why uninstall kept a file that holds nothing but our entries
	// (install did not create it, or git tracks it).
	Kept string `json:"kept,omitempty"`
	// KeptFiles: the scripts of ours uninstall left in place (git tracks
	// them).
	KeptFiles []string `json:"kept_files,omitempty"`
	Events    []string `json:"events"`
	Diff      string   `json:"diff,omitempty"`
	Managed   bool     `json:"managed,omitempty"` // the agent's admin settings (--managed)
	// SwitchedOff: another file's setting makes the agent run none of its
	// hooks, these entries included (report.SwitchedOff).
	SwitchedOff *report.SwitchCheck `json:"switched_off,omitempty"`
	// LinesOff: the entries the agent skips one by one, by another file's
	// setting (report.SwitchedOff's linesOff).
	LinesOff []lineOff `json:"lines_off,omitempty"`

	ProjectWhy string `json:"-"` // why this project directory, when it was not given
}

// lineOff is an entry install wrote that the agent skips: its event, and
// the setting (with its file and fix) that makes it.
type lineOff struct {
	Event string `json:"event"`
	Why   string `json:"why"`
}

// printInstall says what r did to agent's hook file: on out, but on errw
// what would mix with a dry run's diff.
func printInstall(out, errw io.Writer, agent *agents.Agent, r *installResult) {
	file := show(r.File)
	if r.ProjectWhy != "" {
		// On stderr with a dry run, whose stdout is the diff.
		w := out
		if r.DryRun {
			w = errw
		}
		fmt.Fprintf(w, "project: %s (%s; --project DIR for another)\n", show(r.Project), r.ProjectWhy)
	}
	switch {
	case r.DryRun && !r.Changed:
		fmt.Fprintf(out, "%s: nothing to change (dry run)\n", file)
	case r.DryRun:
		printDiff(out, r.Diff)
		fmt.Fprintf(errw, "dry run: %s not written\n", file)
	case !r.Changed && len(r.KeptFiles) > 0:
		fmt.Fprintf(out, "%s: hermes-hooks' files there are kept (%s); nothing changed\n", file, r.Kept)
	case !r.Changed && r.Action == "uninstall":
		fmt.Fprintf(out, "%s: hermes-hooks is not installed there; nothing changed\n", file)
	case !r.Changed:
		fmt.Fprintf(out, "%s: already installed for %d %s events; nothing changed\n", file, len(r.Events), agent.Title)
	case r.Removed:
		fmt.Fprintf(out, "removed %s (it held only hermes-hooks)\n", file)
	case r.Restored:
		fmt.Fprintf(out, "removed hermes-hooks from %s: the file is back as it was before install\n", file)
	case r.Kept != "" && len(r.KeptFiles) == 0:
		fmt.Fprintf(out, "removed hermes-hooks from %s; kept the file (%s), which holds nothing else now\n", file, r.Kept)
	case r.Action == "uninstall":
		fmt.Fprintf(out, "removed hermes-hooks from %s\n", file)
	default:
		fmt.Fprintf(out, "%s: %s now runs hermes-hooks for %s\n", file, agent.Title, strings.Join(r.Events, ", "))
		if r.Managed {
			fmt.Fprintf(out, "These are %s's managed settings: they apply to every user of this machine, who cannot edit or switch them off.\n", agent.Title)
			fmt.Fprintln(out, "Each user still approves the hooks hermes-hooks runs: hermes-hooks list; hermes-hooks approve --all")
			break
		}
		if r.Project != "" {
			// As the README's Agents steps: a repository's hooks are
			// approved after review, for every clone (approve --project).
			fmt.Fprintln(out, "Approve the hooks it should run: hermes-hooks list; then hermes-hooks approve --project (the repository's, listed for review first) and hermes-hooks approve --all (the rest)")
		} else {
			fmt.Fprintln(out, "Approve the hooks it should run: hermes-hooks list; hermes-hooks approve --all")
		}
		if n := agent.HookFile.Notice; n != "" {
			fmt.Fprintln(out, "Note: "+n)
		}
		if r.Project != "" && agent.StartFolderOnly && !isHome(r.Project) {
			// A monorepo's package is where many start the agent: say
			// that the root's file does not reach it (doctor run there
			// says so too).
			fmt.Fprintf(out, "Note: %s reads %s only when started in %s itself, not in a folder below it: to guard every session, also run hermes-hooks install %s --user\n",
				agent.Title, file, show(r.Project), agent.Name)
		}
	}
	if r.SwitchedOff != nil {
		fmt.Fprintln(out, report.SwitchLine(r.SwitchedOff))
	}
	for _, l := range r.LinesOff {
		fmt.Fprintln(out, report.LineOffLine(l.Event, l.Why))
	}
	for _, d := range r.RemovedDirs {
		fmt.Fprintf(out, "removed the empty directory %s\n", show(d))
	}
	for _, k := range r.KeptFiles {
		fmt.Fprintf(out, "kept %s (%s)\n", show(k), r.Kept)
	}
	if r.Backup != "" && !r.DryRun {
		fmt.Fprintf(out, "previous file kept as %s\n", show(r.Backup))
	}
}

// printDiff prints a dry run's diff, each line escaped for the terminal
// (show on the whole text would escape its newlines too).
func printDiff(w io.Writer, diff string) {
	for _, l := range strings.SplitAfter(diff, "\n") {
		if l != "" {
			fmt.Fprintln(w, show(strings.TrimSuffix(l, "\n")))
		}
	}
}

// hermesInstall is what `install hermes` (and uninstall) did.
type hermesInstall struct {
	Plan              *install.Hermes
	Uninstall, DryRun bool
	Diff, Backup      string // the dry run's diff; the file the config was kept as
	ShellHooks        int    // the hooks Hermes' config.yaml runs itself (install.HermesShellHooks)
}

// JSON is install hermes --json's output.
func (r *hermesInstall) JSON() map[string]any {
	h, action := r.Plan, "install"
	if r.Uninstall {
		action = "uninstall"
	}
	out := map[string]any{"agent": "hermes", "dir": h.Plugin.Dir, "action": action, "changed": h.Changed(),
		"dry_run": r.DryRun, "files": h.ChangedFiles(), "diff": r.Diff, "config": h.Enable.Path, "backup": r.Backup}
	if h.Gateway != nil {
		out["gateway_dir"] = h.Gateway.Dir
	}
	if h.Note != "" {
		out["note"] = h.Note
	}
	return out
}

// printInstallHermes says what r did: on out, but a dry run's notice on
// errw (stdout is the diff).
func printInstallHermes(out, errw io.Writer, r *hermesInstall) {
	h := r.Plan
	dir, cfg := show(h.Plugin.Dir), show(h.Enable.Path)
	switch {
	case r.DryRun && !h.Changed():
		fmt.Fprintf(out, "%s: nothing to change (dry run)\n", dir)
	case r.DryRun:
		printDiff(out, r.Diff)
		fmt.Fprintf(errw, "dry run: %s and %s not written\n", dir, cfg)
	case !h.Changed() && r.Uninstall:
		fmt.Fprintf(out, "%s: the Hermes plugin is not installed there; nothing changed\n", dir)
	case !h.Changed():
		fmt.Fprintf(out, "%s: the Hermes plugin is already installed and enabled; nothing changed\n", dir)
	case r.Uninstall:
		fmt.Fprintf(out, "removed the Hermes plugin from %s\n", dir)
		if h.Gateway.Changed {
			fmt.Fprintf(out, "removed the gateway hook from %s\n", show(h.Gateway.Dir))
		}
		if h.Enable.Changed {
			how := "took hermes-hooks out of plugins.enabled"
			if h.Enable.Restored {
				how = "the file is back as it was before install"
			}
			fmt.Fprintf(out, "%s: %s\n", cfg, how)
		}
	default:
		fmt.Fprintf(out, "%s: the Hermes plugin is installed (%d files)\n", dir, len(h.Plugin.Files))
		if h.Enable.Changed {
			fmt.Fprintf(out, "%s: enabled it (plugins.enabled); Hermes loads it when it next starts\n", cfg)
		}
		if h.Gateway != nil {
			fmt.Fprintf(out, "%s: the gateway hook is installed: the messaging gateway hands its events to hermes-hooks when it next starts\n", show(h.Gateway.Dir))
		}
		if r.ShellHooks > 0 {
			fmt.Fprintf(out, "Note: %s also declares %s that Hermes runs itself; with the plugin they would run twice. Move the hooks: block into a file of its own, leave hooks: {} in config.yaml, and point the plugin at it (HERMES_HOOKS_CONFIG): see docs/agents.md, Hermes plugin.\n",
				cfg, report.Count(r.ShellHooks, "shell hook", "shell hooks"))
		}
	}
	if h.Note != "" {
		fmt.Fprintf(out, "Note: %s: %s\n", cfg, h.Note)
	}
	if r.Backup != "" && !r.DryRun {
		fmt.Fprintf(out, "previous file kept as %s\n", show(r.Backup))
	}
}

// pluginInstall is what install did with files it owns outright (an Open
// Plugins plugin, OpenCode's generated plugin): Where names them, Removed
// is the line for an uninstall that removed them, Done the lines for an
// install that wrote them.
type pluginInstall struct {
	Where                      string
	DryRun, Changed, Uninstall bool
	Diff, Removed              string
	Done                       []string
	// Kept are the files of ours the user had edited, each with the copy
	// kept of it before it was replaced or removed.
	Kept [][2]string
	// Tracked are the files of ours uninstall left in place: git tracks
	// them (the team committed them).
	Tracked []string
}

// printPluginInstall prints p the way every install verb reports: the
// diff of a dry run (to w, "not written" to errw), or one line on what
// changed.
func printPluginInstall(w, errw io.Writer, p pluginInstall) {
	where := show(p.Where)
	switch {
	case p.DryRun && !p.Changed:
		fmt.Fprintf(w, "%s: nothing to change (dry run)\n", where)
	case p.DryRun:
		printDiff(w, p.Diff)
		fmt.Fprintf(errw, "dry run: %s not written\n", where)
	case !p.Changed && p.Uninstall && len(p.Tracked) > 0:
		fmt.Fprintf(w, "%s: the hermes-hooks plugin is kept (%s); nothing changed\n", where, install.KeptTracked)
	case !p.Changed && p.Uninstall:
		fmt.Fprintf(w, "%s: the hermes-hooks plugin is not there; nothing changed\n", where)
	case !p.Changed:
		fmt.Fprintf(w, "%s: the hermes-hooks plugin is already there; nothing changed\n", where)
	case p.Uninstall:
		fmt.Fprintln(w, p.Removed)
	default:
		for _, l := range p.Done {
			fmt.Fprintln(w, l)
		}
		fmt.Fprintln(w, "Approve the hooks it should run: hermes-hooks list; hermes-hooks approve --all")
	}
	for _, k := range p.Tracked {
		fmt.Fprintf(w, "kept %s (%s)\n", show(k), install.KeptTracked)
	}
	for _, k := range p.Kept {
		fmt.Fprintf(w, "%s had been edited since install wrote it: your version is kept as %s\n", show(k[0]), show(k[1]))
	}
}

// isHome reports whether dir is the user's home folder, by any name: a
// project there is the user's own file, read wherever the agent starts.
func isHome(dir string) bool {
	home, err := os.UserHomeDir()
	if err != nil {
		return false
	}
	hi, errH := os.Stat(home)
	di, errD := os.Stat(dir)
	return errH == nil && errD == nil && os.SameFile(hi, di)
}
