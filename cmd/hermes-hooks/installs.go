package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/hermes-hooks/hermes-hooks/bundle"
	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/export"
	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/internal/cli"
	"github.com/hermes-hooks/hermes-hooks/internal/cmdpin"
	"github.com/hermes-hooks/hermes-hooks/journal"
	"github.com/hermes-hooks/hermes-hooks/report"
)

func newInstallsCmd(a *app) *cobra.Command {
	var asJSON, paths bool
	cmd := &cobra.Command{
		Use:   "installs [--json]",
		Short: "List every file 'hermes-hooks install' wrote (your home directory and each project)",
		Long: `Lists the installations recorded in $HERMES_HOME/` + install.RegistryFile + `:
every file install wrote, in your home directory and in each project (the
agents' hook files, Claude Code's settings.local.json, Cline's scripts, the
OpenCode and Open Plugins plugins, Hermes' plugin), with when, and by which
hermes-hooks binary. uninstall takes a file's record out again.

A record whose file is gone, or no longer holds an entry of hermes-hooks,
is marked "stale: edited by hand or removed"; 'uninstall --all' drops such
a record and leaves the file alone. A record that names a file where
install never writes (a registry edited by hand) is marked as not
install's, and 'uninstall --all' refuses it.

--paths prints instead where hermes-hooks keeps everything else: the
binary, HERMES_HOME (shared with Hermes) and, in it, the config, the
allowlist, the journal, the session state, the digest cache, serve's
socket and this registry: what removing hermes-hooks means.`,
		Example: `  hermes-hooks installs
  hermes-hooks installs --json | jq -r '.installs[].path'
  # take every one of them out
  hermes-hooks uninstall --all --dry-run
  hermes-hooks uninstall --all
  # where the allowlist, the journal and the state are, to remove them
  hermes-hooks installs --paths`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if paths {
				return printPaths(a, asJSON)
			}
			reg, list, err := loadInstallations(a)
			if err != nil {
				return err
			}
			if asJSON {
				return writeJSON(a.Out, map[string]any{"registry": reg, "installs": list})
			}
			printInstallList(a.Out, reg, list)
			return nil
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON for scripts")
	cmd.Flags().BoolVar(&paths, "paths", false, "print where hermes-hooks keeps its binary, config, allowlist, journal and state instead")
	return cmd
}

// printPaths is `installs --paths`: every place hermes-hooks keeps
// something, for a user who removes it (or backs it up).
func printPaths(a *app, asJSON bool) error {
	state, err := a.Home()
	if err != nil {
		return err
	}
	if abs, err := filepath.Abs(state); err == nil {
		state = abs
	}
	exe, _ := install.Executable()
	cfg, _ := a.Config()
	journalNote := "and its rotated files .1.jsonl …, .head, .lock"
	jpath, err := a.journalPath("")
	if err != nil {
		jpath = filepath.Join(state, journal.DefaultFile)
		journalNote = "the config does not load, so this is the default: a journal: path: in it may name another file"
	}
	in := func(name string) string { return filepath.Join(state, name) }
	ps := []pathLine{
		{Name: "binary", Path: exe, Note: "this program"},
		{Name: "state", Path: state, Note: "HERMES_HOME; Hermes keeps its own files here too"},
		{Name: "config", Path: cfg, Note: "your hooks (Hermes reads it too)"},
		{Name: "allowlist", Path: consent.NewStore(state).Path(), Note: "your approvals (Hermes' file too), and .lock"},
		{Name: "journal", Path: jpath, Note: journalNote},
		{Name: "registry", Path: install.NewRegistry(state).Path, Note: "what install wrote ('installs'), and .lock"},
		{Name: "backups", Path: install.BackupsDir(state), Note: "install's copies of the hook files it edited, for uninstall to restore"},
		{Name: "sessions", Path: in("hook-state"), Note: "one-shot dispatch's session state"},
		{Name: "digests", Path: in(cmdpin.CacheFileName), Note: "the digest cache of large hook files"},
		{Name: "socket", Path: in("hermes-hooks.sock"), Note: "serve's, while it runs"},
		{Name: "bundles", Path: bundle.UserDir(state), Note: "the hook bundles you installed ('bundle list'; 'bundle remove NAME')"},
		{Name: "spool", Path: in(export.SpoolDir), Note: "records waiting for 'export flush' (with an export: block)"},
	}
	if asJSON {
		return writeJSON(a.Out, ps)
	}
	printPathLines(a.Out, ps)
	return nil
}

// loadInstallations reads the registry of HERMES_HOME, each record checked
// against its file.
func loadInstallations(a *app) (string, []install.Installation, error) {
	state, err := a.Home()
	if err != nil {
		return "", nil, err
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", nil, err
	}
	list, err := install.Installations(state, home)
	if err != nil {
		return "", nil, err
	}
	return install.NewRegistry(state).Path, list, nil
}

// noteInstall records rec in the registry after install wrote it, or
// forgets it after uninstall took it out. The install itself is done by
// then: a registry that cannot be written is a warning, not a failure.
func noteInstall(a *app, rec install.Record, uninstall bool) {
	state, err := a.Home()
	if err != nil {
		fmt.Fprintf(a.Err, "hermes-hooks: warning: not recorded in the registry of installations: %v\n", err)
		return
	}
	reg := install.NewRegistry(state)
	var backup string
	if uninstall {
		backup, err = reg.Forget(rec.Agent, rec.Path)
	} else {
		rec.Version = cli.Version()
		rec.Binary, _ = install.Executable()
		backup, err = reg.Remember(rec)
	}
	if backup != "" {
		fmt.Fprintf(a.Err, "hermes-hooks: warning: %s was not a registry of installations; it was kept as %s and a new one started\n", show(reg.Path), show(backup))
	}
	if err != nil {
		fmt.Fprintf(a.Err, "hermes-hooks: warning: %s: not recorded in the registry of installations ('hermes-hooks installs' will not list it): %v\n", show(rec.Path), err)
	}
}

// mayRemove says whether uninstall may delete agent's file at path (as
// install names it; real: its links followed), which holds nothing else
// once our entries are out: only when the registry records that install
// created it and git tracks neither name (install.MayRemove). A registry
// that cannot be read records nothing: the file stays.
func mayRemove(a *app, agent, path, real string) (bool, string) {
	rec, ok := recordOf(a, agent, path)
	created := ok && rec.Created
	ok, why := install.MayRemove(path, created)
	if ok && real != path {
		ok, why = install.MayRemove(real, created)
	}
	return ok, why
}

// createdDirs are the folders the registry records that install created
// for agent's file (or folder) at path: the only ones uninstall removes
// when it leaves them empty. Without a record, none.
func createdDirs(a *app, agent, path string) []string {
	rec, _ := recordOf(a, agent, path)
	return rec.CreatedDirs
}

// recordOf is the registry's record of agent's installation at path (none
// when the registry cannot be read).
func recordOf(a *app, agent, path string) (install.Record, bool) {
	state, err := a.Home()
	if err != nil {
		return install.Record{}, false
	}
	return install.NewRegistry(state).Lookup(agent, path)
}

// scopeOf is a record's scope for install's options.
func scopeOf(user bool) string {
	if user {
		return install.ScopeUser
	}
	return install.ScopeProject
}

// allResult is one installation in `uninstall --all --json`.
type allResult struct {
	install.Installation
	Result  json.RawMessage `json:"result,omitempty"`
	Skipped string          `json:"skipped,omitempty"`
	Error   string          `json:"error,omitempty"`
}

// runUninstallAll is `uninstall --all`: every installation of the registry
// taken out through the uninstall of its agent (which removes only what it
// recognises as its own), each printed; one that fails is reported and the
// others still go (exit 1 at the end).
func runUninstallAll(a *app, cmd *cobra.Command, o installOptions) error {
	for _, f := range []string{"project", "user", "local", "agent"} {
		if cmd.Flags().Changed(f) {
			return usageErr("hermes-hooks uninstall --all [--dry-run] [--json]", "--%s does not apply to --all: it takes out every recorded installation", f)
		}
	}
	reg, list, err := loadInstallations(a)
	if err != nil {
		return err
	}
	results := make([]allResult, 0, len(list))
	failed := 0
	for _, in := range list {
		r := allResult{Installation: in}
		var out bytes.Buffer
		each := *a
		if o.json {
			each.Out = &out
		}
		switch {
		case in.Misplaced != "":
			r.Error = in.Misplaced
		case in.Stale != "":
			r.Skipped = in.Stale
			if !o.dryRun {
				noteInstall(a, in.Record, true)
			}
			if !o.json {
				dropped := "its record dropped"
				if o.dryRun {
					dropped = "its record would be dropped (dry run)"
				}
				fmt.Fprintf(a.Out, "%s: %s; left alone, %s\n", show(in.Path), in.Stale, dropped)
			}
		default:
			if err := uninstallOne(&each, in.Record, o); err != nil {
				r.Error = err.Error()
			}
			r.Result = bytes.TrimSpace(out.Bytes())
		}
		if r.Error != "" {
			failed++
			if !o.json {
				fmt.Fprintf(a.Err, "hermes-hooks: uninstall %s %s: %s\n", show(in.Agent), show(in.Path), show(r.Error))
			}
		}
		results = append(results, r)
	}
	if o.json {
		if err := writeJSON(a.Out, map[string]any{"registry": reg, "dry_run": o.dryRun, "installs": results}); err != nil {
			return err
		}
	} else if len(list) == 0 {
		fmt.Fprintf(a.Out, "no installation recorded (%s); nothing to uninstall\n", show(reg))
	}
	if failed > 0 {
		if !o.json {
			fmt.Fprintf(a.Err, "hermes-hooks: %d of %d installations not taken out (above); their records stay in %s\n", failed, len(list), show(reg))
		}
		return silentExit(1)
	}
	return nil
}

// uninstallOne takes out one recorded installation through its agent's
// own uninstall: nothing is taken from the record but the agent, the
// root and the flags, and the path was checked to be where install
// writes for them (install.Placement).
func uninstallOne(a *app, rec install.Record, o installOptions) error {
	each := o
	each.uninstall, each.user, each.local, each.project = true, rec.User(), rec.Local, ""
	if rec.Managed() {
		each.user, each.local = false, false
		each.m = managedOptions{managed: true, root: rec.Root, dropIn: rec.DropIn}
		return runManaged(a, rec.Agent, each)
	}
	if t := pluginTargetVerbs[rec.Agent]; t.uninstall != nil {
		return t.uninstall(a, rec, each)
	}
	if !rec.User() {
		each.project = rec.Root
	}
	return runInstall(a, rec.Agent, each, !rec.User())
}

// printInstallList is `hermes-hooks installs`: one paragraph per
// installation the registry (at registry) records, the stale and the
// misplaced ones marked. Every path is escaped: a registry may have been
// edited by anyone who can write the user's files.
func printInstallList(w io.Writer, registry string, list []install.Installation) {
	if len(list) == 0 {
		fmt.Fprintf(w, "no installation recorded (%s)\n", show(registry))
		return
	}
	stale := 0
	for _, in := range list {
		where := "your home directory"
		if t, ok := install.LookupPluginTarget(in.Agent); ok && t.StateDir {
			where = "HERMES_HOME"
		}
		switch {
		case in.Managed():
			where = "managed settings, every user of the machine"
			if c := filepath.Clean(in.Root); filepath.Dir(c) != c {
				where += ", under " + show(in.Root)
			}
		case !in.User():
			where = "project " + show(in.Root)
		}
		if in.Local {
			where += ", this checkout only"
		}
		fmt.Fprintf(w, "%s  %s  (%s)\n", show(in.Agent), show(in.Path), where)
		fmt.Fprintf(w, "  installed %s", in.InstalledAt.UTC().Format(time.DateTime))
		if !in.UpdatedAt.Equal(in.InstalledAt) {
			fmt.Fprintf(w, ", rewritten %s", in.UpdatedAt.UTC().Format(time.DateTime))
		}
		fmt.Fprintf(w, " UTC by hermes-hooks %s (%s)\n", show(in.Version), show(in.Binary))
		fmt.Fprintf(w, "  wrote %s\n", wroteSummary(&in.Record))
		switch {
		case in.Misplaced != "":
			stale++
			fmt.Fprintf(w, "  NOT INSTALL'S: %s\n", show(in.Misplaced))
		case in.Stale != "":
			stale++
			fmt.Fprintf(w, "  %s\n", in.Stale)
		}
	}
	fmt.Fprintf(w, "%s recorded in %s", report.Count(len(list), "installation", "installations"), show(registry))
	if stale > 0 {
		fmt.Fprintf(w, "; %d stale or not install's (uninstall --all drops a stale record and touches nothing of that file)", stale)
	}
	fmt.Fprintln(w, "\nTake them all out: hermes-hooks uninstall --all (--dry-run first to see what changes)")
}

// wroteSummary is a record's Wrote in one line: the events of its
// entries (installs --json has their command lines), or its files.
func wroteSummary(r *install.Record) string {
	if r.Kind != install.KindEntries {
		return fmt.Sprintf("%d file(s) it owns outright: %s", len(r.Wrote), show(strings.Join(r.Wrote, ", ")))
	}
	events := make([]string, 0, len(r.Wrote))
	for _, w := range r.Wrote {
		ev, _, _ := strings.Cut(w, ": ")
		events = append(events, ev)
	}
	return fmt.Sprintf("%d entries, for %s (installs --json: their command lines)", len(r.Wrote), show(strings.Join(events, ", ")))
}

// pathLine is one place hermes-hooks keeps something (installs --paths).
type pathLine struct {
	Name string `json:"name"`
	Path string `json:"path"`
	Note string `json:"note"`
}

// printPathLines is `installs --paths`: name, path and what it is, aligned.
func printPathLines(w io.Writer, ps []pathLine) {
	width := 0
	for _, p := range ps {
		width = max(width, len(p.Name))
	}
	for _, p := range ps {
		fmt.Fprintf(w, "%-*s  %s  # %s\n", width, p.Name, show(p.Path), p.Note)
	}
}
