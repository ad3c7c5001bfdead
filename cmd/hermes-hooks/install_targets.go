package main

import (
	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/install"
)

// pluginTargetVerb is how install and uninstall write one install.PluginTarget:
// one row per target, keyed by its name (TestPluginInstallsMatchTargets
// holds the two tables in step).
type pluginTargetVerb struct {
	// run installs (or, with --uninstall, removes) it; dir is the folder
	// named after a Folder target ("" for the others).
	run func(a *app, dir string, o installOptions, projectSet bool) error
	// uninstall takes out a recorded installation of it (uninstall --all);
	// nil: run with --uninstall in the record's root, as for an agent.
	uninstall func(a *app, rec install.Record, o installOptions) error
}

var pluginTargetVerbs = map[string]pluginTargetVerb{
	install.TargetHermes: {
		run: func(a *app, _ string, o installOptions, projectSet bool) error {
			return runInstallHermes(a, o, projectSet)
		},
		uninstall: func(a *app, _ install.Record, o installOptions) error {
			return runInstallHermes(a, o, false)
		}},
	install.TargetOpenCode: {
		run: func(a *app, _ string, o installOptions, _ bool) error { return runInstallOpenCode(a, o) }},
	install.TargetOpenPlugin: {
		run: func(a *app, dir string, o installOptions, _ bool) error { return runInstallOpenPlugin(a, dir, o) },
		uninstall: func(a *app, rec install.Record, o installOptions) error {
			o.agent = rec.PluginAgent
			return runInstallOpenPlugin(a, rec.Path, o)
		}},
}

// folderTarget returns the plugin target called name when it takes a
// folder after its name (install open-plugin DIR).
func folderTarget(name string) (*install.PluginTarget, bool) {
	t, ok := install.LookupPluginTarget(name)
	return t, ok && t.Folder
}

// installables are the names install takes: every agent, then the plugin
// targets.
func installables() []string {
	names := agents.Names()
	for _, t := range install.PluginTargets() {
		names = append(names, t.Name)
	}
	return names
}

// oneArgInstallables are the names install takes alone (every agent,
// then the plugin targets that need no folder): the list its errors give.
func oneArgInstallables() []string {
	names := agents.Names()
	for _, t := range install.PluginTargets() {
		if !t.Folder {
			names = append(names, t.Name)
		}
	}
	return names
}
