package install

import (
	"bytes"
	"errors"
	"fmt"
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
'hermes-hooks uninstall hermes' removes it, and a new install replaces it)."""
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
edit: 'hermes-hooks uninstall hermes' removes it, and a new install replaces it).
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
	// Edited says Old is not what an install wrote: the user changed it.
	// Apply keeps it as a copy (Kept: where) before it replaces or
	// removes it.
	Edited bool
	Kept   string
	// dropBackup: Path+BackupSuffix holds only what an install wrote (a
	// copy an earlier version kept of its own file), which uninstall
	// removes; any other copy there is the user's and stays.
	dropBackup bool
	// backupOld: a replaced file is kept at Path+BackupSuffix whatever it
	// holds (the Hermes plugin's files, where any content counts as
	// install's own: the copy is of an earlier version, and uninstall
	// removes it).
	backupOld bool
}

// ownedFile is the FileWrite of a file install owns outright, want its
// content; pristine says whether content is what an install wrote (of
// any binary path, any agent).
func ownedFile(path string, old, want []byte, pristine func([]byte) bool, uninstall bool) FileWrite {
	fw := FileWrite{Path: path, Old: old, New: want, Edited: old != nil && !pristine(old)}
	if !uninstall {
		fw.Changed = old == nil || !bytes.Equal(old, want)
		return fw
	}
	fw.New, fw.Changed = nil, old != nil
	if b, err := readBounded(path + BackupSuffix); err == nil && pristine(b) {
		fw.dropBackup = true
	}
	return fw
}

// keepCopy writes data, a file of the user's that install is about to
// replace or remove, beside path: path+BackupSuffix, or the first of
// .2, .3, … that is free (a copy kept earlier is never written over),
// unless one of them holds data already. It returns the copy's path.
func keepCopy(path string, data []byte) (string, error) {
	for i := 1; i <= 100; i++ {
		name := path + BackupSuffix
		if i > 1 {
			name += fmt.Sprintf(".%d", i)
		}
		if cur, err := readBounded(name); err == nil && bytes.Equal(cur, data) {
			return name, nil
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		if _, err = f.Write(data); err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		return name, err
	}
	return "", fmt.Errorf("%s: no free name for a copy of your edited file (%s…); not changed", path, path+BackupSuffix)
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
		// The vendored package differs from one version to the next: any
		// content counts as install's own here.
		fw := ownedFile(p, old, want[n], func([]byte) bool { return true }, uninstall)
		fw.backupOld = true
		plan.Changed = plan.Changed || fw.Changed
		plan.Files = append(plan.Files, fw)
	}
	return plan, nil
}

// Kept are the files Apply kept a copy of (the user had edited them),
// each with its copy.
func (p *PluginPlan) Kept() [][2]string {
	var kept [][2]string
	for _, f := range p.Files {
		if f.Kept != "" {
			kept = append(kept, [2]string{f.Path, f.Kept})
		}
	}
	return kept
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

// Apply writes (or removes) the plan's files. A file the user edited is
// kept as a copy first (keepCopy; FileWrite.Kept says where); one that is
// what an install wrote needs none. Uninstall removes the copies earlier
// versions kept of install's own files, never one of the user's, and the
// folders it leaves empty.
func (p *PluginPlan) Apply() error {
	for i := range p.Files {
		f := &p.Files[i]
		if !f.Changed && !f.dropBackup {
			continue
		}
		if f.Edited {
			kept, err := keepCopy(f.Path, f.Old)
			if err != nil {
				return err
			}
			f.Kept = kept
		}
		if f.New == nil { // uninstall
			if err := os.Remove(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			if f.dropBackup {
				if err := os.Remove(f.Path + BackupSuffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return err
				}
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(f.Path), 0o755); err != nil {
			return err
		}
		if f.backupOld && f.Old != nil {
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
