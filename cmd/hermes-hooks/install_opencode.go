package main

import (
	"fmt"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/install"
)

// openCodeTarget is install's pseudo-agent for OpenCode, which runs no
// commands of a hook file, only JavaScript plugins: install writes one, a
// shim that runs 'hermes-hooks hook' in Claude Code's protocol.
const openCodeTarget = "opencode"

// runInstallOpenCode writes (or, with --uninstall, removes) the OpenCode
// plugin in the project's .opencode/plugins (--user: the home directory's
// .config/opencode/plugins).
func runInstallOpenCode(a *app, o installOptions) error {
	if o.gateway {
		return usageErr("--gateway is Hermes' gateway hook: hermes-hooks install hermes --gateway", "--gateway given for %s", openCodeTarget)
	}
	res := installResult{Agent: openCodeTarget, Action: "install", DryRun: o.dryRun, Events: []string{"tool.execute.before", "tool.execute.after"}}
	if o.uninstall {
		res.Action = "uninstall"
	}
	root, err := installRoot(o, &res)
	if err != nil {
		return &exitError{Code: 1, Msg: err.Error()}
	}
	rel := install.OpenCodePluginFile
	if o.user {
		rel = install.OpenCodeUserFile
	}
	exe, err := selfPath()
	if err != nil {
		return &exitError{Code: 1, Msg: "cannot find this program's path: " + err.Error()}
	}
	plan, err := install.MakeOpenCode(filepath.Join(root, filepath.FromSlash(rel)), exe, o.uninstall)
	if err != nil {
		return &exitError{Code: 1, Msg: err.Error()}
	}
	res.File, res.Changed = plan.Files[0].Path, plan.Changed
	if o.dryRun {
		res.Diff = plan.Diff()
	} else if err := plan.Apply(); err != nil {
		return &exitError{Code: 1, Msg: err.Error()}
	}
	if o.json {
		return writeJSON(a.Out, res)
	}
	file := show(res.File)
	switch {
	case o.dryRun && !res.Changed:
		fmt.Fprintf(a.Out, "%s: nothing to change (dry run)\n", file)
	case o.dryRun:
		printDiff(a, res.Diff)
		fmt.Fprintf(a.Err, "dry run: %s not written\n", file)
	case !res.Changed && o.uninstall:
		fmt.Fprintf(a.Out, "%s: the hermes-hooks plugin is not there; nothing changed\n", file)
	case !res.Changed:
		fmt.Fprintf(a.Out, "%s: the hermes-hooks plugin is already there; nothing changed\n", file)
	case o.uninstall:
		fmt.Fprintf(a.Out, "removed %s\n", file)
	default:
		fmt.Fprintf(a.Out, "%s: OpenCode now runs hermes-hooks (Claude Code's PreToolUse and PostToolUse) around every tool call\n", file)
		fmt.Fprintln(a.Out, "Approve the hooks it should run: hermes-hooks list; hermes-hooks approve --all")
	}
	return nil
}
