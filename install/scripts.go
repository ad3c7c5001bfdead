package install

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/hermes-hooks/hermes-hooks/agents"
	"github.com/hermes-hooks/hermes-hooks/internal/fsutil"
)

// A Scripts layout (agents.Scripts, Cline's hooks folder) holds one
// executable per event, named after it, where the other layouts hold one
// JSON file. Install writes agents.Script(command(event)) there, mode
// 0755, for each event; uninstall removes exactly the files that are such
// a script (agents.IsOwnScript), whatever binary path they name. A file of
// that name that is anything else is the user's own hook: install refuses
// to touch the folder (it would have to replace it), and uninstall leaves
// it. No backup is kept: nothing install writes or removes held anything
// of the user's.

// ScriptsPlan is one computed edit of a Scripts folder.
type ScriptsPlan struct {
	Agent *agents.Agent
	// Dir is the folder; Root (optional) the directory it belongs to, up
	// to which the folders uninstall leaves empty are removed.
	Dir, Root string
	// Files are the events' files, in the hook file's event order; those
	// with nothing to do included.
	Files []ScriptFile
	// Changed says some file is to be written or removed; Uninstall that
	// the plan removes.
	Changed, Uninstall bool
	// RemovedDirs are the folders Apply removed (left empty by uninstall).
	RemovedDirs []string
	// CreatedDirs and OwnDirs are as Plan's: the folders install created,
	// and, for uninstall, those an install recorded creating (nil: none),
	// the only ones removed when left empty.
	CreatedDirs, OwnDirs []string
}

// ScriptFile is one event's file: its content now (Exists) and the
// content to write (New; nil with Remove, or when nothing changes).
type ScriptFile struct {
	Event, Path string
	Old         []byte
	Exists      bool
	New         []byte
	Remove      bool
}

// scriptsOS is the system the scripts are written for (runtime.GOOS; tests
// set it). On Windows install writes none: agents.Script is a shell script,
// started by its #! line and execute bit, neither of which Windows has.
// Cline there runs a hook file through PowerShell (powershell.exe -File,
// its name or its name with .ps1), which refuses a file without .ps1 and
// would not read sh if it did: the hooks would never run, and Cline lets
// every call through a hook that fails. Uninstall there still removes
// ours (an earlier release's install, a folder committed on Linux).
var scriptsOS = runtime.GOOS

// changed reports whether the file is to be written or removed.
func (f *ScriptFile) changed() bool { return f.Remove || f.New != nil }

// MakeScripts reads dir and computes the edit: our script for every
// event (command gives its command line), or, with uninstall, our scripts
// removed. A file of an event's name that is not ours, or not a regular
// file, is an error for install (nothing is written); so is install on
// Windows, where nothing runs the scripts (scriptsOS).
func MakeScripts(agent *agents.Agent, dir string, command func(event string) string, uninstall bool) (*ScriptsPlan, error) {
	if !uninstall && scriptsOS == "windows" {
		return nil, fmt.Errorf("%s: install writes %s's hooks as POSIX shell scripts (#!/bin/sh, no extension), which nothing runs on Windows: %s would run none of them, and every call would pass unguarded; nothing written (uninstall still removes the ones an earlier install wrote)",
			dir, agent.Title, agent.Title)
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	p := &ScriptsPlan{Agent: agent, Dir: dir, Uninstall: uninstall}
	var theirs []string
	for _, ev := range agent.HookFile.Events {
		f := ScriptFile{Event: ev, Path: filepath.Join(dir, ev)}
		fi, err := os.Lstat(f.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, err
		case !fi.Mode().IsRegular():
			if !uninstall {
				theirs = append(theirs, f.Path+" (not a regular file)")
			}
			p.Files = append(p.Files, f)
			continue
		default:
			if f.Old, err = fsutil.ReadRegular(f.Path, "", 1<<20); err != nil {
				return nil, err
			}
			f.Exists = true
		}
		own := f.Exists && agents.IsOwnScript(f.Old, agent.Name)
		switch {
		case uninstall:
			f.Remove = own
		case f.Exists && !own:
			theirs = append(theirs, f.Path)
		default:
			if want := agents.Script(command(ev)); !f.Exists || !bytes.Equal(f.Old, want) {
				f.New = want
			}
		}
		p.Changed = p.Changed || f.changed()
		p.Files = append(p.Files, f)
	}
	if len(theirs) > 0 {
		return nil, fmt.Errorf("%s: a hook of your own is there, which %s runs in place of hermes-hooks': %s; not changed (move it out of %s, and name it in the hermes-hooks config's %s: to keep it)",
			dir, agent.Title, strings.Join(theirs, ", "), dir, agent.Source.ConfigKey)
	}
	return p, nil
}

// Diff is a unified diff per file written or removed, for --dry-run.
func (p *ScriptsPlan) Diff() string {
	var b strings.Builder
	for _, f := range p.Files {
		if !f.changed() {
			continue
		}
		from, to := f.Path, f.Path
		if !f.Exists {
			from = "/dev/null"
		}
		after := lines(string(f.New))
		if f.Remove {
			to, after = "/dev/null", nil
		}
		b.WriteString(unified(from, to, lines(string(f.Old)), after))
	}
	return b.String()
}

// Apply writes the plan: each new script atomically and only where no
// file is (a hook the user adds meanwhile is never replaced), each of ours
// that changes atomically in its place; or removes ours, then the folders
// of OwnDirs left empty up to Root.
func (p *ScriptsPlan) Apply() error {
	if !p.Changed {
		return nil
	}
	if p.Uninstall {
		for _, f := range p.Files {
			if f.Remove {
				if err := os.Remove(f.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return err
				}
			}
		}
		p.RemovedDirs = removeEmptyDirs(p.Dir, p.Root, p.OwnDirs)
		return nil
	}
	created, err := mkdirAll(p.Dir, 0o755)
	p.CreatedDirs = created
	if err != nil {
		return err
	}
	for _, f := range p.Files {
		switch {
		case f.New == nil:
		case f.Exists:
			if err := writeAtomic(f.Path, f.New, 0o755); err != nil {
				return fmt.Errorf("%s: %w", f.Path, err)
			}
		default:
			if err := createExclusive(f.Path, f.New); err != nil {
				return fmt.Errorf("%s: %w", f.Path, err)
			}
		}
	}
	return nil
}

// createExclusive writes a new executable at path, whole or not at all,
// failing if a file appeared there since the plan was made: the content
// goes to a temporary file that is then hard-linked into place.
func createExclusive(path string, data []byte) error {
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".hermes-hooks.tmp")
	_ = os.Remove(tmp)
	if err := writeAtomic(tmp, data, 0o755); err != nil {
		return err
	}
	defer os.Remove(tmp)
	return os.Link(tmp, path)
}
