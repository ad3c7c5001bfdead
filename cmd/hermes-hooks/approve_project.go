package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/consent"
	"github.com/hermes-hooks/hermes-hooks/hookconfig"
	"github.com/hermes-hooks/hermes-hooks/install"
	"github.com/hermes-hooks/hermes-hooks/internal/shquote"
	"github.com/hermes-hooks/hermes-hooks/report"
)

// runApproveProject is `approve --project [DIR]`: every hook the project at
// DIR declares (its .hermes/hooks.yaml and the agents' hook files read for
// it) is listed with what it runs and the digests an approval records, and
// approved together once confirmed: at the terminal, or with --yes. A
// confirmation nobody can give (stdin not a terminal: a script, an agent)
// is a refusal, not a yes: approving a repository's hooks is the one step
// that lets them run.
func runApproveProject(a *app, args []string, o approveOptions) error {
	dir, err := projectArg(args)
	if err != nil {
		return err
	}
	cfg, store, statuses, err := a.inspectIn(dir, func() (*hookconfig.Config, error) { return a.LoadConfigFor(dir) })
	if err != nil {
		return err
	}
	hooks := report.ProjectHooks(statuses)
	// With nothing declared, named as the search went: up to the
	// repository's root, which is what a reader in a subdirectory takes
	// "the project" for.
	root, _ := install.ProjectDir(dir, "")
	if len(hooks) > 0 {
		root = hooks[0].Status.Entry.Scope.Project
	}
	extra := map[string]any{"project": root, "hooks": hooks}
	if len(hooks) == 0 {
		if err := unloadedProject(cfg); err != nil {
			// Its hooks file (or a rule file it includes) holds hooks
			// that did not load: "no hooks declared" would tell the
			// person the repository asks for nothing, and exit 0 to a
			// script, while its guards are what is missing.
			if o.json {
				if werr := writeJSON(a.Out, map[string]any{"project": root, "hooks": []report.ProjectHook{}, "results": []any{}, "approved": 0, "refused": 0, "error": err.Error()}); werr != nil {
					return werr
				}
			}
			return withHint(err, "run 'hermes-hooks validate' in the project for every problem; fix it, then run "+approveProjectCommand(args)+" again")
		}
		if o.json {
			// [], not null: a script's jq '.hooks[]' reads an empty list.
			return writeJSON(a.Out, map[string]any{"project": root, "hooks": []report.ProjectHook{}, "results": []any{}, "approved": 0, "refused": 0})
		}
		// Said so that it holds right after install, whose entries in an
		// agent's hook file run hermes-hooks and declare no hook: the
		// newcomer is told where a repository's hooks go.
		fmt.Fprintf(a.Out, "No hooks declared by the project at %s — nothing to approve.\n", show(root))
		fmt.Fprintf(a.Out, "A repository declares its hooks in %s (or in an agent's hook file); the entries install writes only run hermes-hooks.\n",
			hookconfig.ProjectHooksFile)
		return nil
	}
	cut := false
	if !o.json {
		cut = report.PrintProjectPlan(a.Out, root, hooks)
	}
	if n := report.Pending(hooks); n > 0 && !o.yes {
		if cut {
			// A "y" would approve text the person was not shown (a
			// context rule's message is put before the model).
			return withHint(errors.New("approve --project: nothing approved: a message above is too long to show here, so the plan is not all that would be approved"),
				"read the hooks whole with "+approveProjectCommand(args)+" --json, then run: "+approveProjectCommand(args)+" --yes")
		}
		in, tty := a.In.(*os.File)
		if o.json || !tty || !isTerminal(in.Fd()) {
			if o.json {
				extra["error"] = "not confirmed: run again with --yes"
				extra["approved"], extra["refused"], extra["results"] = 0, 0, []any{}
				if err := writeJSON(a.Out, extra); err != nil {
					return err
				}
			}
			return withHint(errors.New("approve --project: nothing approved: confirmation needs a terminal (standard input is not one)"),
				"review the hooks listed, then run: "+approveProjectCommand(args)+" --yes")
		}
		fmt.Fprintf(a.Out, "Approve %s for this project? [y/N] ", report.Count(n, "hook", "hooks"))
		if !confirmed(a.In) {
			fmt.Fprintln(a.Out, "Nothing approved.")
			return silentExit(1)
		}
	}
	targets := make([]approveTarget, len(hooks))
	for i, h := range hooks {
		// What the plan showed is what is approved: a file swapped while
		// the person read it is refused, not approved in its new content.
		reviewed := make([]consent.FileRecord, len(h.Files))
		for j, f := range h.Files {
			reviewed[j] = consent.FileRecord{Path: f.Path, SHA256: f.SHA256}
		}
		targets[i] = approveTarget{event: h.Event, command: h.Command, status: h.Status, reviewed: reviewed}
	}
	o.dir, o.jsonExtra = dir, extra
	return approveTargets(a, cfg, store, targets, "", o)
}

// projectArg is approve --project's DIR (the working directory when none),
// absolute and checked to be a directory.
func projectArg(args []string) (string, error) {
	dir := "."
	if len(args) == 1 {
		dir = args[0]
	}
	abs, err := filepath.Abs(dir)
	if err == nil {
		var fi os.FileInfo
		if fi, err = os.Stat(abs); err == nil && !fi.IsDir() {
			err = fmt.Errorf("not a directory")
		}
	}
	if err != nil {
		return "", usageErr("name the project's directory (or run it there with no DIR)", "approve --project %s: %v", show(dir), err)
	}
	return abs, nil
}

// approveProjectCommand is the command as typed, for a hint: its DIR
// quoted when there was one, and no empty quoted argument when there was
// none.
func approveProjectCommand(args []string) string {
	if len(args) == 0 {
		return "hermes-hooks approve --project"
	}
	return "hermes-hooks approve --project " + shquote.IfNeeded(args[0])
}

// confirmed reads one answer line: y or yes (any case) confirms.
func confirmed(in io.Reader) bool {
	line, _ := bufio.NewReader(in).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}

// unloadedProject is the error naming the project's hooks files that did
// not load (a bundle's or the managed layer's are no project's), nil when
// every one did.
func unloadedProject(cfg *hookconfig.Config) error {
	var why []string
	for _, u := range cfg.Unloaded {
		if u.Managed || u.Bundle || u.File == "" {
			continue
		}
		why = append(why, u.Err.Error())
	}
	if len(why) == 0 {
		return nil
	}
	return fmt.Errorf("approve --project: nothing approved: the project's hooks do not load: %s", strings.Join(why, "; "))
}
