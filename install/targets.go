package install

import (
	"fmt"
	"path/filepath"

	"github.com/hermes-hooks/hermes-hooks/agents"
)

// Install targets that are not an agents.Agent: plugins install writes
// and owns outright, for a program that runs no hook file of commands
// (Hermes, OpenCode) or in a format several agents read (Open Plugins).
const (
	TargetHermes     = "hermes"
	TargetOpenCode   = "opencode"
	TargetOpenPlugin = "open-plugin"
)

// A PluginTarget is one of those targets: its name, where its files go
// and how install recognises them. Adding one is a row of pluginTargets
// (and the CLI's row that writes it); nothing else compares its name.
type PluginTarget struct {
	Name string
	// StateDir: a user's installation lives in HERMES_HOME, not in the
	// home directory.
	StateDir bool
	// Folder: the root is a folder the user names (install open-plugin
	// DIR), not a project or the home directory.
	Folder bool
	// path is where install writes rec's files for root, an error when
	// rec cannot be an installation of this target (Placement).
	path func(rec *Record, root string) (string, error)
	// holdsOwn reports that rec's files still hold what install wrote.
	holdsOwn func(rec *Record) bool
}

// pluginTargets is the registry, in the order help and errors list them.
var pluginTargets = []*PluginTarget{
	{Name: TargetHermes, StateDir: true,
		path: func(rec *Record, root string) (string, error) {
			if !rec.User() {
				return "", fmt.Errorf("%s: Hermes' plugin is a user's; not touched", rec.Path)
			}
			return filepath.Join(root, filepath.FromSlash(HermesPluginDir)), nil
		},
		holdsOwn: func(rec *Record) bool {
			// Any content of the plugin's files counts as install's (see
			// makeDirPlan); its entry point is what makes it a plugin.
			_, err := readBounded(filepath.Join(rec.Path, "__init__.py"))
			return err == nil
		}},
	{Name: TargetOpenCode,
		path: func(rec *Record, root string) (string, error) { return OpenCodePath(root, rec.User()), nil },
		holdsOwn: func(rec *Record) bool {
			data, err := readBounded(rec.Path)
			return err == nil && IsOwnOpenCodePlugin(data)
		}},
	{Name: TargetOpenPlugin, Folder: true,
		path: func(rec *Record, root string) (string, error) {
			if rec.User() {
				return "", fmt.Errorf("%s: an Open Plugins plugin is a project's; not touched", rec.Path)
			}
			if _, ok := agents.Lookup(rec.PluginAgent); !ok {
				return "", fmt.Errorf("%s: unknown agent %q for an Open Plugins plugin; not touched", rec.Path, rec.PluginAgent)
			}
			return root, nil // its root is the plugin's folder
		},
		holdsOwn: func(rec *Record) bool {
			data, err := readBounded(filepath.Join(rec.Path, "hooks", "hooks.json"))
			return err == nil && ownHooks(data)
		}},
}

// LookupPluginTarget returns the plugin target called name.
func LookupPluginTarget(name string) (*PluginTarget, bool) {
	for _, t := range pluginTargets {
		if t.Name == name {
			return t, true
		}
	}
	return nil, false
}

// PluginTargets returns every plugin target, in registry order.
func PluginTargets() []*PluginTarget { return append([]*PluginTarget(nil), pluginTargets...) }
