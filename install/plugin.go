package install

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// HermesPluginDir is the plugin's folder inside a Hermes home.
const HermesPluginDir = "plugins/hermes-hooks"

// HermesGatewayDir is the gateway hook's folder inside a Hermes home: the
// messaging gateway loads every hooks/<name>/ holding HOOK.yaml and
// handler.py.
const HermesGatewayDir = "hooks/hermes-hooks"

// hermesShim is the plugin's entry module: Hermes imports the plugin folder
// as a package and calls register(ctx); the client it needs is vendored
// beside it, so nothing has to be pip-installed into Hermes' environment.
const hermesShim = `"""hermes-hooks for Hermes (written by ` + "`hermes-hooks install hermes`" + `; do not edit:
install --uninstall removes it, and a new install replaces it)."""
import os as _os
import sys as _sys

_vendor = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "vendor")
if _vendor not in _sys.path:
    _sys.path.insert(0, _vendor)

from hermes_hooks.hermes_plugin import register  # noqa: E402,F401
`

// gatewayShim is the gateway hook's handler.py: the gateway imports it and
// calls handle(event_type, context) for the events HOOK.yaml lists; the
// client is vendored beside it, as for the plugin.
const gatewayShim = `"""hermes-hooks' gateway hook (written by ` + "`hermes-hooks install hermes --gateway`" + `; do not
edit: install --uninstall removes it, and a new install replaces it).
Every event HOOK.yaml lists goes to hermes-hooks in the background."""
import os as _os
import sys as _sys

_vendor = _os.path.join(_os.path.dirname(_os.path.abspath(__file__)), "vendor")
if _vendor not in _sys.path:
    _sys.path.insert(0, _vendor)

from hermes_hooks.hermes_gateway import drain, handle  # noqa: E402,F401
`

// FileWrite is one file of a plugin install.
type FileWrite struct {
	Path    string // absolute
	Old     []byte // current content (nil: absent)
	New     []byte // nil: remove
	Changed bool
}

// PluginPlan is the computed install (or uninstall) of the Hermes plugin.
type PluginPlan struct {
	Dir     string
	Files   []FileWrite
	Changed bool
}

// MakeHermesPlugin plans writing the plugin into home (a Hermes home):
// plugin.yaml and the shim at the top of HermesPluginDir, the hermes_hooks
// package under vendor/. Uninstall removes exactly those files (and the
// folders left empty).
func MakeHermesPlugin(home string, pkg fs.FS, uninstall bool) (*PluginPlan, error) {
	return makeDirPlan(filepath.Join(home, filepath.FromSlash(HermesPluginDir)), pkg,
		"__init__.py", hermesShim, "hermes_hooks/hermes_plugin/plugin.yaml", "plugin.yaml", uninstall)
}

// MakeHermesGateway plans writing the gateway hook into home: HOOK.yaml
// and handler.py at the top of HermesGatewayDir, the hermes_hooks package
// under vendor/ (the gateway hook works without the plugin). Uninstall
// removes exactly those files.
func MakeHermesGateway(home string, pkg fs.FS, uninstall bool) (*PluginPlan, error) {
	return makeDirPlan(filepath.Join(home, filepath.FromSlash(HermesGatewayDir)), pkg,
		"handler.py", gatewayShim, "hermes_hooks/hermes_gateway/HOOK.yaml", "HOOK.yaml", uninstall)
}

// makeDirPlan plans a folder dir holding the shim (named shimName), the
// manifest copied from pkg, and the hermes_hooks package under vendor/.
func makeDirPlan(dir string, pkg fs.FS, shimName, shim, manifestFrom, manifest string, uninstall bool) (*PluginPlan, error) {
	want := map[string][]byte{shimName: []byte(shim)}
	yml, err := fs.ReadFile(pkg, manifestFrom)
	if err != nil {
		return nil, err
	}
	want[manifest] = yml
	err = fs.WalkDir(pkg, "hermes_hooks", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(pkg, p)
		want[path.Join("vendor", p)] = data
		return err
	})
	if err != nil {
		return nil, err
	}
	names := make([]string, 0, len(want))
	for n := range want {
		names = append(names, n)
	}
	sort.Strings(names)
	plan := &PluginPlan{Dir: dir}
	for _, n := range names {
		p := filepath.Join(dir, filepath.FromSlash(n))
		old, err := readBounded(p)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		fw := FileWrite{Path: p, Old: old, New: want[n]}
		if uninstall {
			fw.New = nil
			fw.Changed = old != nil
		} else {
			fw.Changed = old == nil || !bytes.Equal(old, fw.New)
		}
		plan.Changed = plan.Changed || fw.Changed
		plan.Files = append(plan.Files, fw)
	}
	return plan, nil
}

// Diff is the plan as unified diffs, file by file.
func (p *PluginPlan) Diff() string {
	var b strings.Builder
	for _, f := range p.Files {
		if !f.Changed {
			continue
		}
		from, to := f.Path, f.Path
		if f.Old == nil {
			from = "/dev/null"
		}
		if f.New == nil {
			to = "/dev/null"
		}
		b.WriteString(unified(from, to, lines(string(f.Old)), lines(string(f.New))))
	}
	return b.String()
}

// Apply writes (or removes) the plan's files; a file it replaces is kept
// beside it with BackupSuffix. Uninstall removes those backups too, and
// the folders it leaves empty.
func (p *PluginPlan) Apply() error {
	for _, f := range p.Files {
		if f.New == nil {
			// Uninstall: the file, and the backup a later install kept
			// of it (the files are ours: the backup is of our own).
			for _, q := range []string{f.Path, f.Path + BackupSuffix} {
				if err := os.Remove(q); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return err
				}
			}
			continue
		}
		if !f.Changed {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
			return err
		}
		if f.Old != nil {
			if err := writeAtomic(f.Path+BackupSuffix, f.Old, 0o644); err != nil {
				return err
			}
		}
		if err := writeAtomic(f.Path, f.New, 0o644); err != nil {
			return err
		}
	}
	if len(p.Files) > 0 && p.Files[0].New == nil {
		// Python's byte-code caches of the files removed.
		_ = filepath.WalkDir(p.Dir, func(q string, d fs.DirEntry, err error) error {
			if err == nil && d.IsDir() && d.Name() == "__pycache__" {
				_ = os.RemoveAll(q)
				return filepath.SkipDir
			}
			return nil
		})
	}
	// Remove the folders left empty, deepest first.
	dirs := map[string]bool{filepath.Dir(p.Dir): true} // plugins/, if install made it
	for _, f := range p.Files {
		for d := filepath.Dir(f.Path); strings.HasPrefix(d, p.Dir); d = filepath.Dir(d) {
			dirs[d] = true
		}
	}
	list := make([]string, 0, len(dirs))
	for d := range dirs {
		list = append(list, d)
	}
	sort.Slice(list, func(i, j int) bool { return len(list[i]) > len(list[j]) })
	for _, d := range list {
		_ = os.Remove(d) // only succeeds when empty
	}
	return nil
}
