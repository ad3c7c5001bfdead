package install

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/hookconfig"
)

// Hermes is what `install hermes` writes: the plugin, the gateway hook
// (gateway; uninstall always takes it out), and the plugin's entry in
// config.yaml's plugins.enabled.
type Hermes struct {
	Plugin, Gateway *PluginPlan // Gateway is nil when not asked for
	Enable          *Plan
	Note            string // what still keeps Hermes from loading the plugin
}

// MakeHermes plans installing (or uninstalling) the Hermes plugin from
// pkg (the Python package, clients.HermesPackage) into the Hermes home.
func MakeHermes(home string, pkg fs.FS, gateway, uninstall bool) (*Hermes, error) {
	h := &Hermes{}
	var err error
	if h.Plugin, err = MakeHermesPlugin(home, pkg, uninstall); err != nil {
		return nil, err
	}
	if gateway || uninstall {
		if h.Gateway, err = MakeHermesGateway(home, pkg, uninstall); err != nil {
			return nil, err
		}
	}
	if h.Enable, h.Note, err = MakeHermesEnable(home, uninstall); err != nil {
		return nil, err
	}
	return h, nil
}

// Dirs are the folders h writes: the plugin's, and the gateway hook's.
func (h *Hermes) Dirs() []*PluginPlan {
	if h.Gateway == nil {
		return []*PluginPlan{h.Plugin}
	}
	return []*PluginPlan{h.Plugin, h.Gateway}
}

// Changed says whether h changes anything.
func (h *Hermes) Changed() bool {
	return h.Plugin.Changed || h.Gateway != nil && h.Gateway.Changed || h.Enable.Changed
}

// ChangedFiles are the paths of the files h changes.
func (h *Hermes) ChangedFiles() []string {
	files := []string{}
	for _, d := range h.Dirs() {
		for _, f := range d.Files {
			if f.Changed {
				files = append(files, f.Path)
			}
		}
	}
	if h.Enable.Changed {
		files = append(files, h.Enable.Path)
	}
	return files
}

// Diff is the unified diff of every change h makes.
func (h *Hermes) Diff() string {
	var b strings.Builder
	for _, d := range h.Dirs() {
		b.WriteString(d.Diff())
	}
	b.WriteString(h.Enable.Diff())
	return b.String()
}

// Apply writes the folders first and the config last: Hermes is never told
// to load a plugin that is not there yet. Uninstall goes the other way.
func (h *Hermes) Apply(uninstall bool) (backup string, err error) {
	if uninstall {
		if _, err := h.Enable.Apply(); err != nil {
			return "", fmt.Errorf("%s: %v", h.Enable.Path, err)
		}
	}
	for _, d := range h.Dirs() {
		if err := d.Apply(); err != nil {
			return "", fmt.Errorf("%s: %v", d.Dir, err)
		}
	}
	if !uninstall {
		if backup, err = h.Enable.Apply(); err != nil {
			return "", fmt.Errorf("%s: %v", h.Enable.Path, err)
		}
	}
	return backup, nil
}

// HermesShellHooks counts the hooks Hermes' own config declares (its
// shell-hook layer runs them, and would run them a second time beside the
// plugin); 0 when there is no readable config.
func HermesShellHooks(home string) (int, error) {
	path := filepath.Join(home, "config.yaml")
	data, err := readBounded(path)
	if err != nil {
		return 0, err
	}
	cfg, err := hookconfig.ParseConfig(data, path)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, e := range cfg.Entries {
		if e.Event.Hermes { // Hermes warns about the others and runs none of them
			n++
		}
	}
	return n, nil
}
